/**
 * The guide's download links for the SCORM packages (embedding.html): a row per package the
 * site offers, read from the build's own list, scorm/packages.json (tools/teacher_kit.py), so
 * the guide names this site's packages and their sizes, never a list typed by hand. The list is
 * a file apart from the page because the full packages hold the page: their sizes are known
 * only once they are written. dist/ holds an empty list; `build.py packages` writes the packages
 * and their list into packages/scorm/, which a host copies into the site as its scorm/
 * (tools/packages.py). File names and titles are set as text.
 */
import { t } from "../i18n.js";

/**
 * @typedef {object} PackageEntry
 * @property {string} file  the zip's name in scorm/
 * @property {string} title  its manifest's title
 * @property {number} bytes  its size
 */

/**
 * A size as the guide shows it: kB under a megabyte, MB (one decimal) above; 1 kB = 1000 bytes,
 * as the build's log counts.
 *
 * @param {number} bytes
 * @returns {string}
 */
export function sizeText(bytes) {
  if (bytes < 1e6) return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * The entries of scorm/packages.json, checked: a list of {file, title, bytes} with a plain
 * .zip name (no folder), a title and a whole, positive size. Throws an Error saying what is
 * wrong otherwise.
 *
 * @param {unknown} listing
 * @returns {PackageEntry[]}
 */
export function packageEntries(listing) {
  const packages = /** @type {{packages?: unknown}} */ (listing ?? {}).packages;
  if (!Array.isArray(packages)) throw new Error("scorm/packages.json holds no list of packages");
  return packages.map((entry, index) => {
    const { file, title, bytes } = entry ?? {};
    if (typeof file !== "string" || !/^[\w.-]+\.zip$/.test(file)) {
      throw new Error(`package ${index + 1} of scorm/packages.json has no plain .zip file name`);
    }
    if (typeof title !== "string" || !title.trim()) throw new Error(`${file} has no title in scorm/packages.json`);
    if (!Number.isInteger(bytes) || bytes <= 0) throw new Error(`${file} has no size in scorm/packages.json`);
    return { file, title, bytes };
  });
}

/**
 * Fill `body` (the download table's tbody) with a row per package: its link, title and size;
 * or one row saying why there is none.
 *
 * @param {HTMLTableSectionElement} body
 * @param {string} [folder]  where the packages are, relative to the page: each link is
 *   FOLDER + file, as a hosted site serves it
 * @returns {Promise<void>}
 */
export async function showPackageDownloads(body, folder = "scorm/") {
  const page = body.ownerDocument;
  /** @param {string[]} texts */
  const row = (...texts) => {
    const tr = page.createElement("tr");
    for (const text of texts) tr.append(Object.assign(page.createElement("td"), { textContent: text }));
    return tr;
  };
  try {
    const response = await fetch(new URL(`${folder}packages.json`, page.baseURI));
    if (!response.ok) {
      throw new Error(t("this site has no list of SCORM packages (scorm/packages.json answered {status})", { status: response.status }));
    }
    const entries = packageEntries(await response.json());
    if (!entries.length) throw new Error(t("this site was built without SCORM packages"));
    body.replaceChildren(
      ...entries.map(({ file, title, bytes }) => {
        const tr = row("", title, sizeText(bytes));
        const link = Object.assign(page.createElement("a"), { textContent: file });
        link.setAttribute("href", `${folder}${file}`);
        link.setAttribute("download", "");
        tr.cells[0].append(link);
        tr.cells[2].className = "download-size";
        tr.dataset.bytes = String(bytes);
        return tr;
      }),
    );
  } catch (error) {
    const tr = row(
      // Translators: {error} says why there are none; {command} is a command to type, {folder} a folder's name.
      t("No download links: {error}. {command} writes the packages into {folder}; copy that folder with the site.", {
        error: error instanceof Error ? error.message : String(error),
        command: "python3 build.py packages",
        folder: "packages/scorm/",
      }),
    );
    tr.cells[0].colSpan = 3;
    tr.cells[0].className = "note";
    body.replaceChildren(tr);
  }
}
