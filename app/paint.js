/** Paint RGBA pixels computed by Python onto a canvas, one pixel per value. */
export function paintPixels(canvas, { width, height, rgba }) {
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer), width, height), 0, 0);
}
