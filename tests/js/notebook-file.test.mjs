// app/cells/notebook-file.js: the take-home notebook made the learner's: the install cell
// pointed at the wheel on the site it came from, and the learner's kept edits put in their
// cells only when asked.
import assert from "node:assert/strict";
import { test } from "node:test";
import { personalise } from "../../app/cells/notebook-file.js";

const WHEEL = "https://example.org/lab/py/pelab-0.1.0-py3-none-any.whl";

function notebook() {
  const code = (source, pelab) => ({ cell_type: "code", source: source.split(/(?<=\n)/), metadata: { pelab } });
  return {
    cells: [
      { cell_type: "markdown", source: ["# Title"], metadata: {} },
      code("# pelab, or from a copy: %pip install -q pelab-0.1.0-py3-none-any.whl\n%pip install -q pelab-0.1.0-py3-none-any.whl", { role: "install" }),
      code("import pelab\npe = pelab.sinusoidal(seq_len=64, d_model=128)", { cell: "heatmap" }),
      code("# A scratch cell\nx = 1", { cell: "scratch" }),
      code('pelab.check_exercise("formula", globals())', { role: "check", exercise: "formula" }),
    ],
  };
}

const kept = (edits) => ({ get: (name) => edits[name] ?? null });

test("the install cell names the wheel's full address", () => {
  const book = notebook();
  assert.equal(personalise(book, WHEEL, null), 0);
  assert.deepEqual(book.cells[1].source, [
    "# pelab, or from a copy: %pip install -q pelab-0.1.0-py3-none-any.whl\n",
    `%pip install -q ${WHEEL}`,
  ]);
});

test("without the box ticked the lesson's code stays", () => {
  const book = notebook();
  const before = JSON.stringify(book.cells.slice(2));
  personalise(book, WHEEL, null);
  assert.equal(JSON.stringify(book.cells.slice(2)), before);
});

test("with it, each edited cell takes the learner's code, in nbformat's lines, and says so", () => {
  const book = notebook();
  const edits = { heatmap: "import pelab\npe = pelab.sinusoidal(seq_len=8, d_model=4)\npe\n\n" };
  assert.equal(personalise(book, WHEEL, kept(edits)), 1);
  assert.deepEqual(book.cells[2].source, ["import pelab\n", "pe = pelab.sinusoidal(seq_len=8, d_model=4)\n", "pe"]);
  assert.equal(book.cells[2].metadata.pelab.edited, true);
  assert.equal(book.cells[3].metadata.pelab.edited, undefined);
});

test("an edit that is the lesson's code again, or a cell no edit names, counts for nothing", () => {
  const book = notebook();
  const edits = { scratch: "# A scratch cell\nx = 1\n", check: "print('not a cell')" };
  assert.equal(personalise(book, WHEEL, kept(edits)), 0);
  assert.equal(book.cells[3].metadata.pelab.edited, undefined);
  assert.deepEqual(book.cells[4].source, ['pelab.check_exercise("formula", globals())']);
});
