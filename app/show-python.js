/**
 * "Show the Python": each demo shows the exact pelab calls behind what is on screen, with the
 * current slider values filled in, in the <details class="show-python"> inside the demo.
 */
export function showPython(root, code) {
  const block = root.querySelector(".show-python code");
  if (block) block.textContent = code.trim();
}
