/**
 * Code cells: editable Python that runs in the page's shared namespace, like a notebook.
 *
 * Each <div class="cell" data-cell="NAME" data-title="..."> becomes an editor with Run, Stop
 * and Reset, and an output area that streams what the code prints and shows (figures,
 * heatmaps), its last expression's value, or its traceback. Edits are kept per page and cell
 * in localStorage (when the browser allows it) until Reset. A demo offers its code with
 * `cellIn(demo).offer(code)`; an edited cell keeps the learner's code instead.
 *
 * An exercise's cell (`data-exercise="NAME"`) also has Check: it runs the cell, then
 * pelab.check_exercise(NAME, globals()) in the same namespace, shows its report, worded in the
 * page's language (check-report.js), and says on the cell (`data-check`: passed or failed) and
 * in a status line whether every check passed.
 */
import { createEditor } from "./editor.js";
import { cellStorage, storageKeys } from "./storage.js";
import { cellOutput } from "./output.js";
import { t } from "../i18n.js";
import { checkReport } from "./check-report.js";

const byElement = new WeakMap();
/** The cell inside `root` (e.g. a demo's section), if any. */
export function cellIn(root) {
  const element = root.querySelector(".cell");
  return element ? byElement.get(element) : undefined;
}

/** Make every .cell of `document` live; returns {cells, runAll}. */
export function notebookCells(document, python) {
  const storage = cellStorage(...storageKeys(document));
  const cells = new Map();
  for (const element of document.querySelectorAll(".cell")) {
    const cell = createCell(element, python, storage);
    cells.set(cell.name, cell);
    byElement.set(element, cell);
  }

  for (const stream of ["stdout", "stderr"]) {
    python.addEventListener(stream, ({ detail }) => cells.get(detail.cell)?.output.stream(stream, detail.text));
  }
  python.addEventListener("display", ({ detail }) => cells.get(detail.cell)?.output.display(detail.kind, detail.payload));
  python.addEventListener("status", ({ detail }) => cells.get(detail.cell)?.status(detail.packages));

  let runningAll = false;
  async function runAll() {
    if (runningAll) return;
    runningAll = true;
    document.documentElement.dataset.runAll = "running";
    try {
      for (const cell of cells.values()) {
        if (!(await cell.run())) {
          cell.element.scrollIntoView({ block: "center" });
          return false;
        }
      }
      return true;
    } finally {
      runningAll = false;
      document.documentElement.dataset.runAll = "done";
    }
  }
  for (const button of document.querySelectorAll(".cells-run-all")) button.addEventListener("click", runAll);
  // The page's first note says it (a chapter page has one by its "Run all", the free cell one).
  const note = document.querySelector(".cells-storage-note");
  if (storage.blocked && note) {
    note.textContent = t("This browser blocks local storage here, so your edits will not be kept after a reload.");
    note.hidden = false;
  }
  return { cells, runAll };
}

function createCell(element, python, storage) {
  const name = element.dataset.cell;
  const source = element.querySelector(".cell-source");
  let demoCode = source ? source.textContent.trim() + "\n" : "";
  source?.remove();

  const editorHost = Object.assign(document.createElement("div"), { className: "cell-editor" });
  const toolbar = Object.assign(document.createElement("div"), { className: "cell-toolbar" });
  // Translators: a code cell's button, which runs its Python.
  const runButton = button(t("Run"), "cell-run", t("Run this cell (Shift+Enter)"));
  // Translators: a code cell's button, which stops its running Python.
  const stopButton = button(t("Stop"), "cell-stop", t("Stop the running code"));
  // Translators: a code cell's button, which puts back the lesson's code.
  const resetButton = button(t("Reset"), "cell-reset", t("Put back the original code"));
  const statusText = Object.assign(document.createElement("span"), { className: "cell-status" });
  statusText.setAttribute("role", "status");
  stopButton.disabled = true;
  const exercise = element.dataset.exercise;
  // Translators: an exercise's button, which runs its cell and then the exercise's checks.
  const checkButton = exercise ? button(t("Check"), "cell-check", t("Run this cell, then check what it defines")) : null;
  toolbar.append(runButton, ...(checkButton ? [checkButton] : []), stopButton, resetButton, statusText);
  const hint = Object.assign(document.createElement("p"), {
    className: "cell-hint",
    textContent: t("Shift+Enter or Ctrl+Enter runs the cell. To leave the editor with the keyboard, press Esc, then Tab."),
  });
  const outputArea = Object.assign(document.createElement("div"), { className: "cell-output" });
  outputArea.setAttribute("aria-live", "polite");
  element.append(editorHost, toolbar, hint, outputArea);
  const verdict = exercise ? Object.assign(document.createElement("p"), { className: "exercise-verdict" }) : null;
  if (verdict) {
    verdict.setAttribute("role", "status");
    element.append(verdict);
  }

  const saved = storage.get(name);
  let pristine = saved === null;
  const editor = createEditor(editorHost, {
    code: saved ?? demoCode,
    // Translators: a code editor's name for screen readers; {title} is the cell's title.
    label: t("Python code: {title}", { title: element.dataset.title ?? name }),
    onRun: () => run(),
    onChange: (code) => {
      pristine = false;
      storage.set(name, code);
    },
  });
  const output = cellOutput(outputArea, element.dataset.title ?? name);

  function setStatus(state, text) {
    element.dataset.status = state;
    statusText.textContent = text;
  }

  async function run() {
    output.clear();
    setStatus("running", t("Running…"));
    stopButton.disabled = false;
    runButton.disabled = true;
    const started = performance.now();
    try {
      const result = await python.run(name, editor.code);
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      if (result.ok) {
        if (result.repr !== null && result.repr !== undefined) output.result(result.repr);
        setStatus("done", t("Done in {seconds} s", { seconds }));
      } else if (result.error.type === "KeyboardInterrupt") {
        output.error(result.error.traceback);
        // Translators: a code cell's status: its code was stopped.
        setStatus("stopped", t("Stopped"));
      } else {
        output.error(result.error.traceback);
        setStatus("failed", `${result.error.type}`);
      }
      return result.ok;
    } catch (error) {
      const restarted = error.type === "Restarted";
      output.error(
        restarted
          ? t("{error}. Variables from earlier cells are gone: run the cells you need again.", { error: error.message })
          : error.message,
      );
      // Translators: a code cell's status.
      setStatus(restarted ? "stopped" : "failed", restarted ? t("Stopped (Python restarted)") : t("Failed"));
      return false;
    } finally {
      stopButton.disabled = true;
      runButton.disabled = false;
    }
  }

  /** Say whether the exercise's checks passed ("passed", "failed"; "" says nothing). */
  function sayChecked(state, text) {
    if (!verdict) return;
    if (state) element.dataset.check = state;
    else delete element.dataset.check;
    verdict.textContent = text;
  }

  /** Run the cell, then the exercise's checks in its namespace; their report goes below. */
  async function check() {
    checkButton.disabled = true;
    sayChecked("", t("Checking…"));
    try {
      if (!(await run())) {
        sayChecked("failed", t("Your code stopped before the checks could run: fix what the message above says, then check again."));
        return;
      }
      // As __import__, so that a cell that rebinds the name pelab still gets checked; its
      // report comes as JSON, each sentence worded here from the page's catalog.
      const result = await python.run(name, `__import__("pelab").check_exercise(${JSON.stringify(exercise)}, globals()).for_page()`);
      if (!result.ok) {
        output.error(result.error.traceback);
        sayChecked("failed", t("The checks could not run ({error}).", { error: result.error.type }));
        return;
      }
      const report = checkReport(JSON.parse(String(result.repr)));
      output.result(report.text);
      // Translators: {report} is the first line of the checks' report, such as "2 of 5 checks pass."
      sayChecked(report.passed ? "passed" : "failed", report.passed ? report.summary : t("{report} What does not hold is marked ✗ above.", { report: report.summary }));
    } catch (error) {
      sayChecked("failed", t("The checks could not run: {error}", { error: error.message }));
    } finally {
      checkButton.disabled = false;
    }
  }

  runButton.addEventListener("click", run);
  checkButton?.addEventListener("click", check);
  stopButton.addEventListener("click", () => python.stop());
  resetButton.addEventListener("click", () => {
    storage.remove(name);
    pristine = true;
    editor.code = demoCode;
    output.clear();
    setStatus("idle", "");
    sayChecked("", "");
  });

  return {
    name,
    element,
    editor,
    output,
    run,
    /** What the run waits for: the packages it loads (as Pyodide names them), or "" for none. */
    status: (packages) =>
      element.dataset.status === "running" &&
      // Translators: a code cell's status while Python loads packages the code imports; {packages} are their names.
      (statusText.textContent = packages ? t("Loading {packages}…", { packages }) : t("Running…")),
    /** True once the learner (or a shared link) has changed the code. */
    get edited() {
      return !pristine;
    },
    /** Code from a shared link: shown as an edit, not saved over the learner's own. */
    load(code) {
      editor.code = code;
      pristine = false;
    },
    /** The demo's current code: shown unless the learner has edited the cell. */
    offer(code) {
      demoCode = code.trim() + "\n";
      if (pristine) editor.code = demoCode;
    },
  };
}

function button(label, className, title) {
  const element = Object.assign(document.createElement("button"), { type: "button", className, textContent: label, title });
  return element;
}
