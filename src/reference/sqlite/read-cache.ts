// Reads answered from memory while the database is still as they found it. SQLite's
// `PRAGMA data_version` changes whenever another connection (a worker thread, another process,
// `evgen keys revoke`) commits, and this connection's own commits are counted here; an entry is
// used only when neither happened since it was read. The version is checked once per turn of the
// event loop for every read waiting then (fresh(), on onTurnEnd): the check runs after each of
// those reads was called, so an answer is always the database's state after the request came,
// never an older one, and a turn's requests share one snapshot instead of taking one each.
import type { Statement } from 'better-sqlite3';
import { onTurnEnd } from '@evgen/runtime/internal';
import { deepFreeze } from '../frozen.js';
import type { Db } from './open.js';
import { Lru } from './lru.js';

/** Entries kept at most; the least recently used goes first. */
export const READ_CACHE_ENTRIES = 1024;

/**
 * The largest value kept, as sizeWithin counts it: with READ_CACHE_ENTRIES, what one connection's
 * cache can hold (64 MiB), whatever clients make the records it reads (a booking of thousands of
 * attendees, a contact with a long biography).
 */
export const READ_CACHE_ENTRY_BYTES = 64 * 1024;

/**
 * Whether `value` takes at most `limit` bytes, counted roughly as V8 holds it (16 bytes an object
 * or a number, 2 a string's unit, 8 a property); the walk stops once past the limit.
 */
export function sizeWithin(value: unknown, limit: number): boolean {
  let left = limit;
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') left -= 16 + 2 * v.length;
    else if (typeof v !== 'object' || v === null) left -= 16;
    else {
      left -= 16;
      for (const k in v) {
        left -= 8;
        if (left < 0 || !walk((v as Record<string, unknown>)[k])) return false;
      }
    }
    return left >= 0;
  };
  return walk(value);
}

interface Entry {
  readonly version: number;
  readonly writes: number;
  readonly value: unknown;
}

/** What `lookup` gives when the entry is missing or stale. */
export const MISS: unique symbol = Symbol('miss');

/** Lookups against the last check of the version, handed out by ReadCache.fresh(). */
export interface FreshReads {
  /** The value kept under `key` if nothing was committed since it was read; else MISS. */
  lookup(key: string): unknown;
}

export class ReadCache {
  readonly #entries: Lru<Entry>;
  readonly #dataVersion: Statement;
  #writes = 0;
  /** The version the last check read (NaN: none, or it failed; nothing matches it). */
  #checked = NaN;
  /** Reads waiting for the next check; one is scheduled while any wait. */
  #waiting: ((reads: FreshReads) => void)[] = [];

  constructor(db: Db, limit = READ_CACHE_ENTRIES) {
    this.#entries = new Lru(limit);
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** The connection committed (data_version does not count a connection's own commits). */
  wrote(): void {
    this.#writes++;
  }

  /** The version now: call inside the read transaction that reads the value to be kept. */
  version(): number {
    return this.#dataVersion.get() as number;
  }

  /**
   * Resolves once the version has been checked after this call, with every other read waiting in
   * this turn (one snapshot for all of them), to the only way to look a value up: a lookup cannot
   * compare with a check made before its read was called.
   */
  fresh(): Promise<FreshReads> {
    return new Promise((resolve) => {
      if (this.#waiting.length === 0) onTurnEnd(this.#check);
      this.#waiting.push(resolve);
    });
  }

  readonly #check = (): void => {
    const waiting = this.#waiting;
    this.#waiting = [];
    try {
      this.#checked = this.version();
    } catch {
      // The database could not be read now (a lock): every lookup misses, and the read itself
      // meets the error and reports it.
      this.#checked = NaN;
    }
    for (const resolve of waiting) resolve(this.#reads);
  };

  readonly #reads: FreshReads = {
    lookup: (key) => {
      const e = this.#entries.get(key);
      if (e === undefined) return MISS;
      if (e.writes !== this.#writes || e.version !== this.#checked) {
        this.#entries.delete(key);
        return MISS;
      }
      return e.value;
    },
  };

  /**
   * Keeps `value`, read at `version` (in the same transaction), frozen; returns it. Nothing found
   * (undefined) is kept only when asked (`missing`): where a client chooses the key, what was not
   * found would push out what was. A value past READ_CACHE_ENTRY_BYTES is not kept (nor frozen).
   */
  keep<T>(key: string, version: number, value: T, missing = false): T {
    if (value === undefined && !missing) return value;
    if (!sizeWithin(value, READ_CACHE_ENTRY_BYTES)) return value;
    this.#entries.set(key, { version, writes: this.#writes, value: deepFreeze(value) });
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
