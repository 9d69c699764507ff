/**
 * The free code cell ("Your turn"): a section with a code cell, the exercises and the take-home
 * notebook, and no figure. The cells (app/cells/) wire its cells like every other; as a demo it
 * has only the notebook's download to wire (app/cells/take-home.js).
 */
import { takeHome } from "../cells/take-home.js";

export function cellDemo(root) {
  takeHome(root);
  return { firstRender: Promise.resolve() };
}
