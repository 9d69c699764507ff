/**
 * How a worker speaks to the page (see protocol.js): one way to post, one clock for events, one
 * shape for errors.
 */

export const post = (message, transfer = []) => self.postMessage(message, transfer);

/** Now, in ms since the epoch: the `at` of events, comparable with the page's clock. */
export const now = () => performance.timeOrigin + performance.now();

/** An error as a reply carries it: {type, message, traceback}. */
export function describeError(error) {
  const traceback = String(error?.message ?? error);
  const lines = traceback.trim().split("\n");
  return { type: error?.type ?? error?.name ?? "Error", message: lines[lines.length - 1], traceback };
}
