// One segment of the replay log: a file that every writer appends batches to, and this writer's
// reading of it. A record is 16 bytes: an entry (replayEntry: its window's end, then 8 bytes of
// the request key's digest), or a batch's header: 0xFFFFFFFF (no window ends past 2^53 ms, so no
// entry starts so), the batch's entry count, its writer and the writer's sequence number. A
// batch is one write() to a file opened for appending: Linux puts it at the file's end whole,
// after every earlier write and before every later one, so the order of the file decides which of
// two writers had a key first, and a writer that read up to its own batch has read every earlier one.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { windowEndOf } from './entry.js';
import { EntrySet } from './entry-set.js';

export const RECORD_BYTES = 16;
const MAGIC = 0xffffffff;
/** A header's count past this is not a header: bytes of a torn write that happen to start so. */
export const MAX_BATCH_ENTRIES = 1 << 16;
/** Bytes read in one call while catching up: the scratch buffer a caller hands in. */
export const READ_BYTES = 64 * 1024;

/** Writes a batch's header at the start of `b`: its count, writer and sequence number. */
export function writeHeader(b: Buffer, count: number, writer: number, seq: number): void {
  b.writeUInt32BE(MAGIC, 0);
  b.writeUInt32BE(count, 4);
  b.writeUInt32BE(writer, 8);
  b.writeUInt32BE(seq, 12);
}

/** Where reading a segment puts its entries: a set of them, or a count alone. */
export interface SegmentEntries {
  /** Takes the entry at `b[at..at+16)`: whether it was new. */
  add(b: Buffer, at: number): boolean;
  readonly size: number;
}

/**
 * Entries counted, not kept: a segment pruned by a writer that never held it is read only to
 * count its entries, and pruning runs on a request's path: no set of them is built there.
 */
export class EntryCount implements SegmentEntries {
  size = 0;
  add(): boolean {
    this.size++;
    return true;
  }
}

export class Segment {
  readonly #fd: number;
  /** Where this writer's reading goes on: every complete record before it is in `entries`. */
  #readAt = 0;
  /** Entries still to come of the batch being read, and whose batch it is. */
  #left = 0;
  #writer = 0;
  #seq = 0;

  constructor(
    readonly path: string,
    /** The windows' ends this segment holds: from `start`, for `span` ms. */
    readonly start: number,
    readonly span: number,
    readonly entries: SegmentEntries = new EntrySet(),
  ) {
    this.#fd = openSync(path, 'a+');
  }

  /**
   * Appends `batch` (a header, then its entries) in one write, then reads up to and past it:
   * whether each of its entries was in the file before (seen), in order.
   */
  append(batch: Buffer, writer: number, seq: number, scratch: Buffer): boolean[] {
    const written = writeSync(this.#fd, batch);
    if (written !== batch.length)
      throw new Error(`replay log ${this.path}: ${written} of ${batch.length} bytes written`);
    const seen: boolean[] = [];
    this.catchUp(scratch, (isNew) => seen.push(!isNew), writer, seq);
    if (seen.length !== batch.length / RECORD_BYTES - 1)
      throw new Error(`replay log ${this.path}: the batch written was not read back whole`);
    return seen;
  }

  /**
   * Reads every complete record past `#readAt` into `entries`; each entry of the batch of
   * `writer` and `seq` goes to `mine` too (whether it was new). A write still going on at the end
   * (others append as this reads) is read next time.
   */
  catchUp(scratch: Buffer, mine?: (isNew: boolean) => void, writer = 0, seq = 0): void {
    for (;;) {
      // The record before is read again: a cut write's next batch may start inside it (#parse).
      const base = Math.max(0, this.#readAt - RECORD_BYTES);
      const n = readSync(this.#fd, scratch, 0, scratch.length, base);
      const end = this.#parse(scratch, this.#readAt - base, n, mine, writer, seq);
      const advanced = base + end > this.#readAt;
      this.#readAt = Math.max(this.#readAt, base + end);
      if (!advanced || n < scratch.length) return;
    }
  }

  /** Reads `b[from..n)` as records (complete ones only): where the next read starts. */
  #parse(
    b: Buffer,
    from: number,
    n: number,
    mine: ((isNew: boolean) => void) | undefined,
    writer: number,
    seq: number,
  ): number {
    let p = from;
    while (n - p >= RECORD_BYTES) {
      if (isHeader(b, p)) {
        this.#left = b.readUInt32BE(p + 4);
        this.#writer = b.readUInt32BE(p + 8);
        this.#seq = b.readUInt32BE(p + 12);
        p += RECORD_BYTES;
      } else if (this.#left > 0 && this.#holds(b, p)) {
        const isNew = this.entries.add(b, p);
        if (mine && this.#writer === writer && this.#seq === seq) mine(isNew);
        this.#left--;
        p += RECORD_BYTES;
      } else {
        // Bytes of a write cut short (a crash of the machine, a full disk): the next batch may
        // start anywhere after them, even inside the record before, when that was the part of
        // an entry that the cut left (its window's end, read as a whole entry).
        this.#left = 0;
        p = nextHeader(b, Math.max(0, p - RECORD_BYTES + 1), n);
      }
    }
    return p;
  }

  /** Whether the record at `p` is an entry of this segment: its window ends inside the segment's span. */
  #holds(b: Buffer, p: number): boolean {
    const end = windowEndOf(b, p);
    return end >= this.start && end < this.start + this.span;
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/** A batch's header at `p`: the mark, then a count a batch can have. */
const isHeader = (b: Buffer, p: number): boolean =>
  b.readUInt32BE(p) === MAGIC &&
  b.readUInt32BE(p + 4) >= 1 &&
  b.readUInt32BE(p + 4) <= MAX_BATCH_ENTRIES;

/**
 * Where the next header starts at or after `from`, or where to look again once more is read: the
 * bytes after a cut write need not be aligned to 16 bytes.
 */
function nextHeader(b: Buffer, from: number, n: number): number {
  for (let p = from; p + RECORD_BYTES <= n; p++) if (isHeader(b, p)) return p;
  return Math.max(from, n - RECORD_BYTES + 1);
}
