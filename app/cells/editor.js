/**
 * The code editor: CodeMirror 6 (bundled from npm by build.py) set up for Python, with line
 * numbers, bracket matching, undo, Shift+Enter / Ctrl+Enter / Cmd+Enter to run, and
 * Escape-then-Tab to leave the editor (CodeMirror's escape hatch from Tab indentation).
 *
 * CodeMirror is loaded and an editor made only when the learner is about to see it: when its
 * "Show the Python" opens, when it comes within a screen of the viewport, or when it is focused.
 * Until then the editor is its text, shown as plain code. Making the lesson's ten editors at load
 * took about 270 ms of the main thread, and evaluating CodeMirror 110 ms more, in tasks long
 * enough to make the page stutter while Python was starting, for editors mostly in closed
 * <details>. Pointing at (or tabbing to) a "Show the Python" starts loading CodeMirror.
 */

import { nextTask } from "../scheduling/next-task.js";
import { t } from "../i18n.js";

/** The CodeMirror module and this page's setup of it, loaded once, on first need. */
let loading = null;
export function loadCodeMirror() {
  // Spelled from app/'s second level, so that it names the same file from the page's bundle in
  // app/pages/ (build.py bundles the page's modules, and leaves this import to load on need).
  loading ??= import("../cells/vendor/codemirror.js").then(setUp, (error) => {
    loading = null; // the next editor needed tries again
    throw error;
  });
  return loading;
}

function setUp(cm) {
  const { EditorState, EditorView, HighlightStyle, keymap, Prec, tags } = cm;
  /** Marks a replacement of the whole text by the page, as opposed to an edit by the learner. */
  const replacing = cm.Annotation.define();

  /** Syntax colours from CSS variables, so the editor follows the light and dark themes. */
  const highlight = HighlightStyle.define([
    { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.operatorKeyword], color: "var(--code-keyword)" },
    { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
    { tag: [tags.number, tags.bool, tags.null], color: "var(--code-number)" },
    { tag: [tags.comment, tags.lineComment], color: "var(--code-comment)", fontStyle: "italic" },
    { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--code-function)" },
    { tag: [tags.className, tags.definition(tags.variableName)], color: "var(--code-definition)" },
  ]);

  const theme = EditorView.theme({
    "&": { color: "var(--text)", backgroundColor: "var(--code-bg)", borderRadius: "6px", maxHeight: "28rem" },
    ".cm-scroller": { lineHeight: "1.5" },
    "&.cm-focused": { outline: "3px solid var(--focus)", outlineOffset: "2px" },
    ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", caretColor: "var(--text)" },
    ".cm-gutters": { backgroundColor: "var(--code-bg)", color: "var(--muted)", border: "none" },
    ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "var(--code-active)" },
    "&.cm-focused .cm-matchingBracket": { backgroundColor: "var(--code-match)", outline: "1px solid var(--muted)" },
    ".cm-selectionBackground, &.cm-focused .cm-selectionBackground": { backgroundColor: "var(--code-selection) !important" },
    // The page's reduced-motion rule cannot reach into the editor's shadow root: stop the
    // blinking cursor here (!important beats the blink rate CodeMirror sets inline).
    "@media (prefers-reduced-motion: reduce)": { ".cm-cursorLayer": { animation: "none !important" } },
  });

  /** A CodeMirror view in shadow root `root`; see createEditor for the options. */
  function makeView(root, { code, label, onRun, onChange }) {
    const run = () => {
      onRun();
      return true;
    };
    return new EditorView({
      parent: root,
      root,
      state: EditorState.create({
        doc: code,
        extensions: [
          cm.lineNumbers(),
          cm.highlightActiveLineGutter(),
          cm.highlightActiveLine(),
          cm.drawSelection(),
          cm.history(),
          cm.indentOnInput(),
          cm.bracketMatching(),
          cm.closeBrackets(),
          cm.python(),
          cm.syntaxHighlighting(highlight),
          theme,
          Prec.highest(keymap.of([{ key: "Shift-Enter", run }, { key: "Mod-Enter", run }])),
          keymap.of([...cm.closeBracketsKeymap, ...cm.defaultKeymap, ...cm.historyKeymap, cm.indentWithTab]),
          // tabindex: the text is focusable anyway (contenteditable), but saying so lets checkers
          // such as axe see that a long line's horizontal scroller can be reached by keyboard.
          EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((t) => t.annotation(replacing))) {
              onChange(update.state.doc.toString());
            }
          }),
        ],
      }),
    });
  }

  /** Replace the whole text of `view`, not as an edit by the learner (onChange is not called). */
  function replace(view, text) {
    if (text !== view.state.doc.toString()) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: replacing.of(true) });
    }
  }

  return { makeView, replace };
}

/**
 * `work(codemirror)` once CodeMirror is loaded, in a task of its own, after the work queued
 * before it: editors are made one per task, so that opening many at once never holds up the page.
 */
let turn = Promise.resolve();
function inTurn(work) {
  const done = turn
    .then(loadCodeMirror)
    .then(async (codemirror) => {
      await nextTask();
      return work(codemirror);
    });
  turn = done.catch(() => {});
  return done;
}

/**
 * An editor in `host` holding `code`. `onRun()` is called on Shift/Ctrl/Cmd+Enter,
 * `onChange(code)` after every edit; `label` names the editor for screen readers.
 *
 * The editor lives in an open shadow root of `host`: there CodeMirror styles itself with a
 * constructable style sheet, which a strict Content-Security-Policy (style-src 'self')
 * allows, where in the document it would add a <style> element, which that policy blocks.
 * The page's CSS variables (colours, light and dark) still reach it.
 *
 * Until CodeMirror is made (see the top of this file) `host` shows the code in a focusable
 * <pre class="cell-preview">; focusing it moves the focus into the editor once it is made.
 */
export function createEditor(host, { code, label, onRun, onChange }) {
  const preview = Object.assign(document.createElement("pre"), { className: "cell-preview", textContent: code, tabIndex: 0 });
  // Translators: {label} is the editor's name, such as "Python code: The formula".
  preview.setAttribute("aria-label", t("{label} (the editor is loading)", { label }));
  host.append(preview);

  let view = null;
  let codemirror = null;
  // Text not yet shown. Replacing the text of a hidden editor (in a closed "Show the Python")
  // still costs a layout pass and a selection read, and every demo's first render replaces its
  // cell's text: so a hidden editor only keeps the text, and shows it when it is shown or focused.
  let pending = code;
  let making = null;

  function make() {
    making ??= inTurn((loaded) => {
      codemirror = loaded;
      const focused = document.activeElement === preview;
      preview.remove();
      const root = host.attachShadow({ mode: "open" });
      view = codemirror.makeView(root, { code: pending, label, onRun, onChange });
      pending = null;
      host.dataset.editor = "ready";
      if (focused) view.focus();
      return view;
    }).catch((error) => {
      // The code stays readable and runnable (Run reads it); showing it again tries again.
      making = null;
      preview.setAttribute("aria-label", t("{label} (the editor could not load: {error})", { label, error: error.message }));
      host.dataset.editor = "failed";
      throw error;
    });
    return making;
  }

  const show = () => {
    if (!view) return make().catch(() => {}); // said on the preview, see make()
    if (pending === null) return;
    const text = pending;
    pending = null;
    codemirror.replace(view, text);
  };
  // Fires when the editor is within a screen of the viewport: a closed <details> gives it no box,
  // so not before its "Show the Python" opens.
  const near = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && show(), {
    rootMargin: "100% 0px",
  });
  near.observe(host);
  host.addEventListener("focusin", show);
  const details = host.closest("details");
  details?.addEventListener("toggle", () => details.open && show());
  // The learner is about to open it: start loading CodeMirror.
  const summary = details?.querySelector(":scope > summary");
  // A failed early load is only a missed head start: opening it tries again and says so.
  const prefetch = () => loadCodeMirror().catch(() => {});
  for (const intent of ["pointerenter", "focus"]) summary?.addEventListener(intent, prefetch, { once: true });

  return {
    get code() {
      return pending ?? view.state.doc.toString();
    },
    /** Replace the whole text (not an edit by the learner: onChange is not called). */
    set code(text) {
      if (!view || host.checkVisibility?.() === false) {
        pending = text;
        if (!view) preview.textContent = text;
      } else {
        pending = null;
        codemirror.replace(view, text);
      }
    },
  };
}
