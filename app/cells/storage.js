/**
 * Where a cell's edits are kept: localStorage, one key per page and cell. Browsers can block
 * storage (private modes, third-party iframes); then nothing is kept and nothing breaks. An
 * edit kept under an older page name (`formerly`) is still read until the cell is saved again.
 */
export function cellStorage(page, formerly = null) {
  const key = (name, where = page) => `pelab:cell:${where}:${name}`;
  let store = null;
  try {
    store = window.localStorage;
    store.setItem("pelab:probe", "1");
    store.removeItem("pelab:probe");
  } catch {
    store = null;
  }
  const attempt = (action, fallback) => {
    try {
      return store ? action(store) : fallback;
    } catch {
      return fallback; // full, or blocked since: the edit simply is not kept
    }
  };
  return {
    blocked: store === null,
    get: (name) =>
      attempt((s) => s.getItem(key(name)) ?? (formerly === null ? null : s.getItem(key(name, formerly))), null),
    set: (name, code) => attempt((s) => s.setItem(key(name), code)),
    remove: (name) =>
      attempt((s) => {
        s.removeItem(key(name));
        if (formerly !== null) s.removeItem(key(name, formerly));
      }),
  };
}
