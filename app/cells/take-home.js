/**
 * "Download as notebook": the lesson's code cells as a Jupyter notebook (build.py writes it,
 * tools/notebook.py, from the same sources as the pages). Without JavaScript the link downloads
 * that file as built. With it, the download points the first cell at pelab's wheel on this very
 * site, and, if the learner ticks "with my edits", puts each cell they edited (as this browser
 * keeps it, app/cells/storage.js) in place of the lesson's code.
 */
import { personalise } from "./notebook-file.js";
import { cellStorage, storageKeys } from "./storage.js";
import { t } from "../i18n.js";

/** Wire the take-home block inside `root` (a `.take-home`), if there is one. */
export function takeHome(root) {
  const block = root.querySelector(".take-home");
  if (!block) return;
  const link = /** @type {HTMLAnchorElement} */ (block.querySelector(".take-home-download"));
  const withEdits = /** @type {HTMLInputElement} */ (block.querySelector(".take-home-edits"));
  const status = /** @type {HTMLElement} */ (block.querySelector(".take-home-status"));
  link.addEventListener("click", async (event) => {
    event.preventDefault();
    status.textContent = t("Making the notebook…");
    try {
      const response = await fetch(link.href);
      // Translators: said inside "The notebook could not be made (...)"; {status} is an HTTP status such as 404.
      if (!response.ok) throw new Error(t("the server answered {status}", { status: response.status }));
      const notebook = await response.json();
      const storage = withEdits.checked ? cellStorage(...storageKeys(document)) : null;
      // the wheel's address: the notebook names it from the site's root, where the notebook is
      const edited = personalise(notebook, new URL(notebook.metadata.pelab.wheel, response.url).href, storage);
      save(JSON.stringify(notebook, null, 1) + "\n", link.getAttribute("download") || "notebook.ipynb");
      const cells = notebook.cells.filter((cell) => cell.cell_type === "code").length;
      status.textContent = !withEdits.checked
        ? t("Downloaded: {cells} code cells, as the lesson has them.", { cells })
        : edited === 0
          ? t("Downloaded: {cells} code cells, none of them with your edits.", { cells })
          : t("Downloaded: {cells} code cells, {edited} of them with your edits.", { cells, edited });
    } catch (error) {
      status.textContent = t("The notebook could not be made ({error}). Reload the page and try again.", { error: error.message });
    }
  });
}

function save(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ipynb+json" }));
  const anchor = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
