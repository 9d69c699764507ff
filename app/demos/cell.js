/**
 * The free code cell ("Your turn"): a section with one code cell and no figure. The cells
 * (app/cells/) wire it like every other cell; as a demo it has nothing more to do.
 */
export function cellDemo() {
  return { firstRender: Promise.resolve() };
}
