// The log's way to stdout: lines gathered per turn of the event loop, encoded into buffers off the
// JavaScript heap, and written asynchronously when enough of them wait or a little time has passed.
// Each asynchronous write is a trip through libuv's thread pool, whose thread shares the request
// loop's core; a write per line, or per turn, cost more than building the line.
// Held bytes are bounded: a reader that falls behind makes lines drop, counted, never held.
import { write as fsWrite, writeSync as fsWriteSync } from 'node:fs';
import { onTurnEnd } from '@evgen/runtime/internal';
import { pauseSync } from '../pause.js';

/** Where bytes go: one asynchronous write at a time, and a synchronous one for flushSync. */
export interface Sink {
  write(
    bytes: Uint8Array,
    done: (error: NodeJS.ErrnoException | null, written: number) => void,
  ): void;
  writeSync(bytes: Uint8Array): number;
}

/** The sink of a file descriptor (stdout is 1). */
export const fdSink = (fd: number): Sink => ({
  write: (bytes, done) => fsWrite(fd, bytes, 0, bytes.length, null, done),
  writeSync: (bytes) => fsWriteSync(fd, bytes),
});

export interface LineWriterOptions {
  /** The most bytes held (waiting or being written); lines past it are dropped and counted. */
  readonly maxBytes: number;
  /** Bytes waiting that start a write at once. */
  readonly writeAtBytes?: number;
  /** How long waiting bytes wait at most before a write starts. */
  readonly delayMs?: number;
}

export const LINE_WRITE_AT_BYTES = 32 * 1024;
export const LINE_DELAY_MS = 50;
/** How long an EAGAIN (a non-blocking reader's pipe is full) waits before the write is tried again. */
const AGAIN_MS = 10;
/** The size of a buffer lines are encoded into; a larger turn gets a buffer of its own size. */
const BUFFER_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** Lines (newlines) in `bytes`: what a dropped write counts. */
function linesIn(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) n++;
  return n;
}

/** How long flushSync waits in all for a full pipe (EAGAIN) before it drops what is left. */
const FLUSH_AGAIN_LIMIT_MS = 1_000;

/** Writes all of `bytes`, waiting a millisecond at a time (at most FLUSH_AGAIN_LIMIT_MS) on EAGAIN. */
function writeAllSync(sink: Sink, bytes: Uint8Array): void {
  let waited = 0;
  for (let at = 0; at < bytes.length; ) {
    try {
      at += sink.writeSync(bytes.subarray(at));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || waited++ >= FLUSH_AGAIN_LIMIT_MS)
        throw e;
      pauseSync(1);
    }
  }
}

export class LineWriter {
  /** This turn's text, in order; encoded at its end (#collect). */
  #texts: string[] = [];
  /** Encoded bytes waiting, in order: sealed buffers, then the one being filled. */
  readonly #queue: Buffer[] = [];
  #fill: Buffer | undefined;
  #filled = 0;
  /** Bytes held: waiting, being filled or being written. */
  #held = 0;
  #writing = false;
  #timer: NodeJS.Timeout | undefined;
  #dropped = 0;
  readonly #writeAt: number;
  readonly #delayMs: number;

  constructor(
    private readonly sink: Sink,
    private readonly o: LineWriterOptions,
  ) {
    this.#writeAt = o.writeAtBytes ?? LINE_WRITE_AT_BYTES;
    this.#delayMs = o.delayMs ?? LINE_DELAY_MS;
  }

  /** Takes `text` (whole lines, each ending in a newline) to be written after this turn. */
  write(text: string): boolean {
    if (this.#texts.push(text) === 1) onTurnEnd(this.#collect);
    return true;
  }

  /** Lines dropped so far: past the bound, or refused by the sink. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Bytes held now (tests and the bound). */
  get held(): number {
    return this.#held;
  }

  /**
   * Writes everything taken so far, synchronously (at start-up and close). A write already under
   * way is left to end on its own; what follows it is written now.
   */
  flushSync(): void {
    this.#collect();
    this.#seal();
    while (this.#queue.length > 0) {
      const bytes = this.#queue.shift()!;
      this.#held -= bytes.length;
      try {
        writeAllSync(this.sink, bytes);
      } catch {
        this.#dropped += linesIn(bytes);
      }
    }
  }

  readonly #collect = (): void => {
    if (this.#texts.length === 0) return;
    const lines = this.#texts.length;
    const text = this.#texts.length === 1 ? this.#texts[0]! : this.#texts.join('');
    this.#texts = [];
    const bytes = Buffer.byteLength(text);
    if (this.#held + bytes > this.o.maxBytes) {
      this.#dropped += lines;
      return;
    }
    this.#append(text, bytes);
    if (this.#held >= this.#writeAt) this.#start();
    else this.#timer ??= setTimeout(this.#due, this.#delayMs).unref();
  };

  #append(text: string, bytes: number): void {
    if (this.#fill === undefined || this.#filled + bytes > this.#fill.length) {
      this.#seal();
      this.#fill = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, bytes));
    }
    this.#filled += this.#fill.write(text, this.#filled);
    this.#held += bytes;
  }

  /** Moves the bytes of the buffer being filled to the queue. */
  #seal(): void {
    if (this.#fill !== undefined && this.#filled > 0)
      this.#queue.push(this.#fill.subarray(0, this.#filled));
    this.#fill = undefined;
    this.#filled = 0;
  }

  readonly #due = (): void => {
    this.#timer = undefined;
    this.#start();
  };

  /** Writes what waits, one write at a time, until nothing does. */
  #start(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#writing) return;
    this.#seal();
    const bytes = this.#queue.shift();
    if (bytes === undefined) return;
    this.#writing = true;
    this.sink.write(bytes, (error, written) => this.#wrote(bytes, error, written));
  }

  #wrote(bytes: Buffer, error: NodeJS.ErrnoException | null, written: number): void {
    this.#writing = false;
    if (error?.code === 'EAGAIN') {
      this.#queue.unshift(bytes);
      this.#timer ??= setTimeout(this.#due, AGAIN_MS).unref();
      return;
    }
    if (error) {
      // The reader is gone or the descriptor refused: these lines are lost, and counted.
      this.#held -= bytes.length;
      this.#dropped += linesIn(bytes);
    } else {
      this.#held -= written;
      if (written < bytes.length) this.#queue.unshift(bytes.subarray(written));
    }
    if (this.#queue.length > 0 || this.#filled >= this.#writeAt) this.#start();
    else if (this.#filled > 0) this.#timer ??= setTimeout(this.#due, this.#delayMs).unref();
  }
}
