// Frees an ArrayBuffer's memory now instead of at the next full garbage collection.
//
// Each answer a worker thread sends is moved to the request loop as an ArrayBuffer of its own.
// Once written and dropped, it stays counted against the request loop's heap until a collection
// finds it; under page load that count kept V8 starting full collections about ten times a second
// on the request loop (86 in an 8 s run at GetBookingsBatch(100), 0.3–0.4 s of pauses, and
// concurrent marking on the helper threads). Moving the buffer through a port whose other end is
// closed detaches it, and its memory goes with the dropped message (ArrayBuffer.prototype.transfer
// would do it too, but Node 20 lacks it).
// Made on first use: worker threads import this module for ownsBuffer alone.
let sink: MessagePort | undefined;
function closedPort(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  port2.close();
  return port1;
}

/** Whether `bytes` is the whole of its buffer, which can then be moved or freed with it. */
export const ownsBuffer = (bytes: Uint8Array): boolean =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;

/** Detaches `buffer` and frees its memory; it reads as empty afterwards. */
export function detach(buffer: ArrayBuffer): void {
  (sink ??= closedPort()).postMessage(null, [buffer]);
}
