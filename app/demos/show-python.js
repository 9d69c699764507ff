/**
 * "Show the Python": each demo offers the pelab code behind what is on screen, with the
 * current settings filled in, to the live code cell inside its <details class="show-python">.
 * The learner can edit and run it there; an edited cell keeps the learner's version.
 */
import { cellIn } from "../cells/cells.js";

export function showPython(root, code) {
  cellIn(root)?.offer(code);
}
