/**
 * The take-home notebook made the learner's (app/cells/take-home.js downloads it): pure, so that
 * Node tests it (tests/js/notebook-file.test.mjs).
 */

/**
 * Point the notebook's install cell at `wheelUrl`, the wheel's full address, and with `storage`
 * put the learner's kept edits into the cells they edited (marked `"edited": true` in their
 * metadata). Returns how many cells took an edit.
 * @param {{cells: Array<{cell_type: string, source: string[], metadata: any}>}} notebook
 * @param {string} wheelUrl
 * @param {{get: (name: string) => string | null} | null} storage
 */
export function personalise(notebook, wheelUrl, storage) {
  let edited = 0;
  for (const cell of notebook.cells) {
    const pelab = cell.metadata?.pelab ?? {};
    if (pelab.role === "install") {
      // its last line installs the wheel by file name; its comment keeps that, for a copy at hand
      const last = cell.source.length - 1;
      cell.source[last] = cell.source[last].replace(wheelUrl.split("/").pop(), wheelUrl);
    }
    const kept = pelab.cell && storage ? storage.get(pelab.cell) : null;
    if (kept != null && kept.trim() !== cell.source.join("").trim()) {
      cell.source = lines(kept.replace(/\n+$/, ""));
      pelab.edited = true;
      edited += 1;
    }
  }
  return edited;
}

/** A cell's source as nbformat keeps it: lines, each but the last with its newline. */
function lines(text) {
  return text.split(/(?<=\n)/);
}
