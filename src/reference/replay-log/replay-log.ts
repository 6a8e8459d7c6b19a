// The replay record as an append-only log beside the database (gap timestamp-window): every worker
// thread, every process and every restart on one database sees the same record. Its entries are
// the SQLite record's (replayEntry), in segments: a file per SEGMENT_MS of windows' ends, so a
// key always lands in the same segment and a segment whose windows have all ended is deleted
// whole. Each writer keeps the entries of every live segment in memory (EntrySet) and, per turn
// of its event loop, appends the turn's entries as one batch per segment and reads the file up to
// and past it (segment.ts): the file's order decides, across threads and processes alike. A batch
// is written before any of its requests is answered; a write() survives the process being killed
// (kill -9), and, as with the SQLite record's synchronous NORMAL, only a crash of the machine may
// lose the last batches, whose requests were answered but not yet on disk.
//
// Why not SQLite: a commit per turn (locks, write-ahead-log frames of whole pages, checkpoints)
// cost a small call a large share of its time (npm run bench: replay record on vs off); here a
// turn costs a write and a read.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayStore } from '@evgen/runtime';
import { onTurnEnd } from '@evgen/runtime/internal';
import { unavailable } from '../faults.js';
import { groupBy } from '../handlers/common.js';
import type { ReplayUpkeep } from '../ops/instance-stats.js';
import { replayEntry, windowEndOf } from './entry.js';
import {
  EntryCount,
  MAX_BATCH_ENTRIES,
  READ_BYTES,
  RECORD_BYTES,
  Segment,
  writeHeader,
  type SegmentEntries,
} from './segment.js';

/** The span of windows' ends one segment file holds. */
export const SEGMENT_MS = 10_000;
/** How often a writer drops the segments whose windows have all ended (PostgreSQL's record too). */
export const REPLAY_PRUNE_INTERVAL_MS = 1_000;
/**
 * Entries one writer holds in memory before it refuses its own new ones (Unavailable): 32 to 64
 * bytes an entry (EntrySet), so 256 to 512 MB at the bound. A window of five minutes at 25,000
 * requests a second is 7.5 million entries.
 */
export const DEFAULT_MAX_ENTRIES = 8_000_000;

export interface ReplayLogOptions {
  readonly maxEntries?: number;
  readonly upkeep?: ReplayUpkeep;
  /** The clock for pruning at open (tests). */
  readonly nowMs?: number;
}

/**
 * The replay log of the database at `dbPath`: the same directory for every process, whichever
 * path (a symbolic link, a relative path) it opened the database by.
 */
export const replayLogOf = (dbPath: string) => `${realpathSync(dbPath)}-replay-log`;

/** A request's entry waiting for the end of the turn. */
interface Pending {
  readonly entry: Buffer;
  readonly expiresAtMs: number;
  readonly nowMs: number;
  readonly resolve: (seen: boolean) => void;
  readonly reject: (e: unknown) => void;
}

export class ReplayLog implements ReplayStore {
  readonly #segments = new Map<number, Segment>();
  readonly #scratch = Buffer.allocUnsafe(READ_BYTES);
  /** This writer, in the headers of its batches (random: writers share no counter). */
  readonly #writer = randomBytes(4).readUInt32BE(0);
  readonly #maxEntries: number;
  readonly #upkeep: ReplayUpkeep | undefined;
  #seq = 0;
  #pending: Pending[] = [];
  #lastPrune = 0;

  /**
   * The log in directory `dir` (created if needed). Segments whose windows have all ended are
   * deleted; a live one is read when this writer first has an entry for it.
   */
  constructor(
    readonly dir: string,
    o: ReplayLogOptions = {},
  ) {
    this.#maxEntries = o.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#upkeep = o.upkeep;
    mkdirSync(dir, { recursive: true });
    this.#prune(o.nowMs ?? Date.now());
  }

  /**
   * Appends `entries` (an earlier record's, at start-up) without deciding anything: they are
   * refused like any other from then on.
   */
  keep(entries: readonly Buffer[]): void {
    const bySegment = groupBy(entries, (e) => segmentOf(windowEndOf(e)));
    for (const [start, list] of bySegment) this.#append(start, list);
  }

  /** Entries held in memory, every live segment's. */
  get size(): number {
    let n = 0;
    for (const s of this.#segments.values()) n += s.entries.size;
    return n;
  }

  /**
   * Records the key with every other entry of this turn of the event loop (onTurnEnd): a request
   * is answered once its batch is written and read back, never before.
   */
  seen(key: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    const entry = replayEntry(key, expiresAtMs);
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) onTurnEnd(this.#flush);
      this.#pending.push({ entry, expiresAtMs, nowMs, resolve, reject });
    });
  }

  readonly #flush = (): void => {
    const batch = this.#pending;
    this.#pending = [];
    let seen: boolean[];
    try {
      seen = this.#write(batch);
    } catch (e) {
      const fault = unavailable('the replay record could not be written', e);
      for (const p of batch) p.reject(fault);
      return;
    }
    batch.forEach((p, i) => p.resolve(seen[i]!));
  };

  /** Prunes when due, then appends the batch, a write per segment: whether each was seen. */
  #write(batch: readonly Pending[]): boolean[] {
    const nowMs = batch[batch.length - 1]!.nowMs;
    if (nowMs - this.#lastPrune >= REPLAY_PRUNE_INTERVAL_MS) this.#prune(nowMs);
    if (this.size + batch.length > this.#maxEntries)
      throw new Error(`more than ${this.#maxEntries} entries inside their windows`);
    const seen: boolean[] = new Array<boolean>(batch.length);
    const places = batch.map((_, i) => i);
    for (const [start, at] of groupBy(places, (i) => segmentOf(batch[i]!.expiresAtMs))) {
      const found = this.#append(
        start,
        at.map((i) => batch[i]!.entry),
      );
      at.forEach((i, k) => (seen[i] = found[k]! && batch[i]!.expiresAtMs > batch[i]!.nowMs));
    }
    return seen;
  }

  /**
   * Appends `entries` to segment `start`, as one batch (several past MAX_BATCH_ENTRIES): whether
   * each was there before.
   */
  #append(start: number, entries: readonly Buffer[]): boolean[] {
    if (entries.length > MAX_BATCH_ENTRIES)
      return [
        ...this.#append(start, entries.slice(0, MAX_BATCH_ENTRIES)),
        ...this.#append(start, entries.slice(MAX_BATCH_ENTRIES)),
      ];
    const seq = (this.#seq = (this.#seq + 1) >>> 0);
    const bytes = Buffer.allocUnsafe((entries.length + 1) * RECORD_BYTES);
    writeHeader(bytes, entries.length, this.#writer, seq);
    entries.forEach((e, k) => e.copy(bytes, (k + 1) * RECORD_BYTES));
    return this.#segment(start).append(bytes, this.#writer, seq, this.#scratch);
  }

  /** The segment of windows ending from `start`, opened (and read) when first needed. */
  #segment(start: number): Segment {
    let s = this.#segments.get(start);
    if (s === undefined) this.#segments.set(start, (s = this.#read(start)));
    return s;
  }

  /**
   * Deletes every segment whose windows have all ended, this writer's and any other's, and drops
   * those it held. Told as pruned: their entries (read first when this writer held none of them).
   */
  #prune(nowMs: number): void {
    this.#lastPrune = nowMs;
    let pruned = 0;
    for (const name of readdirSync(this.dir)) {
      const start = segmentStartOf(name);
      if (start === undefined || start + SEGMENT_MS > nowMs) continue;
      const s = this.#segments.get(start) ?? this.#read(start, new EntryCount());
      pruned += s.entries.size;
      s.close();
      rmSync(s.path, { force: true });
      this.#segments.delete(start);
    }
    this.#upkeep?.pruned(pruned);
  }

  /** Segment `start`, opened and read to its end into `entries`. */
  #read(start: number, entries?: SegmentEntries): Segment {
    const s = new Segment(join(this.dir, String(start)), start, SEGMENT_MS, entries);
    s.catchUp(this.#scratch);
    return s;
  }

  close(): void {
    for (const s of this.#segments.values()) s.close();
    this.#segments.clear();
  }
}

/** The start of the segment holding windows that end at `ms`. */
const segmentOf = (ms: number): number => ms - (ms % SEGMENT_MS);

/** A segment file's windows' start, from its name; undefined for any other file. */
function segmentStartOf(name: string): number | undefined {
  if (!/^\d{1,16}$/.test(name)) return undefined;
  const start = Number(name);
  return start % SEGMENT_MS === 0 ? start : undefined;
}
