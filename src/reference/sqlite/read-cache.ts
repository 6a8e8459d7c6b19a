// Reads answered from memory while the database is still as they found it. SQLite's
// `PRAGMA data_version` changes whenever another connection (a worker thread, another process,
// `evgen keys revoke`) commits, and this connection's own commits are counted here; an entry is
// used only when neither happened since it was read. Checking costs one read of its own per call,
// so an answer is always the database's state after the request came, never an older one. On a
// small read the check replaces a snapshot and its statements (and the rows they allocate).
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';
import { Lru } from './lru.js';

/** Entries kept at most; the least recently used goes first. */
export const READ_CACHE_ENTRIES = 1024;

interface Entry {
  readonly version: number;
  readonly writes: number;
  readonly value: unknown;
}

/** What `lookup` gives when the entry is missing or stale. */
export const MISS: unique symbol = Symbol('miss');

/** Frozen all the way down: callers share one value, and none may change it for the others. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

export class ReadCache {
  readonly #entries: Lru<Entry>;
  readonly #dataVersion: Statement;
  #writes = 0;

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

  /** The value kept under `key` if nothing was committed since it was read; else MISS. */
  lookup(key: string): unknown {
    const e = this.#entries.get(key);
    if (e === undefined) return MISS;
    if (e.writes !== this.#writes || e.version !== this.version()) {
      this.#entries.delete(key);
      return MISS;
    }
    return e.value;
  }

  /**
   * Keeps `value`, read at `version` (in the same transaction), frozen; returns it. Nothing found
   * (undefined) is not kept: ids of nothing sent by a client cannot push out what was found.
   */
  keep<T>(key: string, version: number, value: T): T {
    if (value === undefined) return value;
    this.#entries.set(key, { version, writes: this.#writes, value: deepFreeze(value) });
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
