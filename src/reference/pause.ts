// Waiting without returning to the event loop, for the few places that must: start-up's retries on
// a locked database, and the log's last write at close into a full pipe.
const cell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` milliseconds. */
export const pauseSync = (ms: number): void => void Atomics.wait(cell, 0, 0, ms);
