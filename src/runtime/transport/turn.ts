// Work batched per turn of the event loop. A request's path has several points where it waits for
// the others that came with it (one database check, one commit, one write for all of them): each
// waited for setImmediate, and each setImmediate queued while the check phase ran went to the next
// turn, so a request took a turn per point, and a turn served fewer requests. Here, work queued
// while this turn's batched work runs (the same callbacks or the promise chains they resume) runs
// in the same turn once those chains stop: no I/O can come in between, so every request it serves
// came before the turn's first batch.

let queued: (() => void)[] = [];
let pending = false;

/**
 * Runs `fn` after the current turn's I/O callbacks, with every other function queued in this turn,
 * in the order queued. Functions queued while these run, or in the microtasks they lead to, run
 * in the same turn after those microtasks, before any further I/O. An error thrown by one is
 * reported as uncaught once the others have run.
 */
export function onTurnEnd(fn: () => void): void {
  if (queued.push(fn) === 1 && !pending) {
    pending = true;
    setImmediate(runBatch);
  }
}

function runBatch(): void {
  const batch = queued;
  queued = [];
  let failure: { error: unknown } | undefined;
  for (const fn of batch) {
    try {
      fn();
    } catch (error) {
      failure ??= { error };
    }
  }
  // A tick queued from a microtask runs once the microtask queue is empty: after every chain the
  // batch resumed has run as far as it can without I/O.
  queueMicrotask(() => process.nextTick(afterBatch));
  if (failure) throw failure.error;
}

function afterBatch(): void {
  if (queued.length > 0) runBatch();
  else pending = false;
}
