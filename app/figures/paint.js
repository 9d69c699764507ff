/**
 * Paint RGBA pixels computed by Python onto a canvas, one pixel per value: on the page, or in
 * the Python worker on an OffscreenCanvas, where `rgba` is a view into wasm memory.
 */
export function paintPixels(canvas, { width, height, rgba }) {
  // Setting a canvas's size, even to the same value, clears and reallocates it: only on a change.
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const pixels = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  canvas.getContext("2d").putImageData(new ImageData(pixels, width, height), 0, 0);
}
