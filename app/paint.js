/** Paint RGBA pixels computed by Python onto a canvas, one pixel per value. */
export function paintPixels(canvas, { width, height, rgba }) {
  // Setting a canvas's size, even to the same value, clears and reallocates it: only on a change.
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer), width, height), 0, 0);
}
