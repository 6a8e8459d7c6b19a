// The SQLite store: the store programs on better-sqlite3. Every call runs its statements
// synchronously in one transaction (a read transaction for reads: one snapshot, one WAL read
// lock), so nothing else runs on the connection in between; the two transactions that take a
// callback (bookings, tokens) hold the connection for their callback, and other calls wait.

import type { InTransaction } from '../store/booking-tx.js';
import type { Program } from '../store/program.js';
import { ProgramStore, type CachedRead } from '../store/program-store.js';
import { fault } from '../faults.js';
import { busyAsFault, openDatabase, type Db, type OpenOptions } from './open.js';
import { MemoryReplayStore, type ReplayStore } from '@evgen/runtime';
import { ReplayLog, replayLogOf } from '../replay-log/replay-log.js';
import { StatementCache, runSqlite } from './statements.js';
import { MISS, ReadCache, type FreshReads } from './read-cache.js';
import type { ReplayUpkeep } from '../ops/instance-stats.js';

/** A write on a read-only service: InvalidRequest, as docs/guides/running-the-service.md says. */
const readOnlyFault = () => fault('InvalidRequest', 'read-only service');

/** `fn`, a lock it waited for past the busy time-out answered as Unavailable. */
function unlessBusy<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw busyAsFault(e);
  }
}

export interface StoreOptions extends OpenOptions {
  /** Where replay entries are written when the database itself is read-only. */
  readonly replayPath?: string | undefined;
  /** Told of the replay record's upkeep (metrics). */
  readonly replayUpkeep?: ReplayUpkeep | undefined;
  /** Small reads answered from memory while nothing was committed since (default true). */
  readonly readCache?: boolean | undefined;
}

/** `program`, and the data version of the snapshot it read (run it in one read transaction). */
function* versioned<T>(cache: ReadCache, program: Program<T>): Program<[number, T]> {
  const version = cache.version();
  return [version, yield* program];
}

export class SqliteStore extends ProgramStore {
  readonly sql: StatementCache;
  readonly replay: ReplayStore;
  /** Small reads kept while nothing was committed since (read-cache.ts); none when turned off. */
  readonly cache: ReadCache | undefined;
  /** The replay log this store writes (none for a database in memory: tests). */
  readonly #replayLog: ReplayLog | undefined;
  readonly #readOnly: boolean;
  /** Set while a callback transaction holds the connection. */
  #held: Promise<unknown> | undefined;
  /**
   * A program in one transaction, made once: better-sqlite3's transaction() builds four wrapper
   * functions and their properties on every call, a measurable part of a small read.
   */
  readonly #inTransaction: ReturnType<Db['transaction']>;

  /** A store on an open connection (migrated); replay entries go to a log of their own (replay-log/). */
  constructor(
    readonly db: Db,
    o: StoreOptions = {},
  ) {
    super();
    this.#readOnly = o.readOnly ?? false;
    this.sql = new StatementCache(db);
    this.cache = o.readCache === false ? undefined : new ReadCache(db);
    // An in-memory database (tests) has no file a second connection could open.
    this.#replayLog = db.memory
      ? undefined
      : new ReplayLog(o.replayPath ?? replayLogOf(db.name), { upkeep: o.replayUpkeep });
    this.replay = this.#replayLog ?? new MemoryReplayStore();
    this.#inTransaction = db.transaction((program: Program<unknown>) =>
      runSqlite(this.sql, program),
    );
  }

  static open(path: string, o: StoreOptions = {}): SqliteStore {
    return new SqliteStore(openDatabase(path, { ...o, migrate: false }), o);
  }

  async #free(): Promise<void> {
    while (this.#held) await this.#held.catch(() => undefined);
  }

  /** One statement: atomic by itself, no transaction needed. */
  protected async one<T>(program: Program<T>): Promise<T> {
    if (this.#held) await this.#free();
    return unlessBusy(() => runSqlite(this.sql, program));
  }

  /** A read in one read transaction (one snapshot). */
  protected async read<T>(program: Program<T>): Promise<T> {
    if (this.#held) await this.#free();
    return unlessBusy(() => this.#inTransaction(program) as T);
  }

  /**
   * A read kept in memory under `key` until anything is committed (read-cache.ts): the version is
   * checked after the call, once for every read waiting in the turn. A chain of promises, not an
   * async function: it runs twice in every small call (the key, then the record), and each await
   * kept a suspended frame of its own.
   */
  protected override cached<T>(
    key: string,
    make: () => Program<T>,
    o: CachedRead = {},
  ): Promise<T> {
    const cache = this.cache;
    if (!cache) return super.cached(key, make, o);
    return cache
      .fresh()
      .then((reads) =>
        this.#held
          ? this.#free().then(() => this.#keptOr(cache, reads, key, make, o))
          : this.#keptOr(cache, reads, key, make, o),
      );
  }

  /** The value kept under `key`, or the read's (in one snapshot with its version), kept. */
  #keptOr<T>(
    cache: ReadCache,
    reads: FreshReads,
    key: string,
    make: () => Program<T>,
    o: CachedRead,
  ): T {
    return unlessBusy(() => {
      const kept = reads.lookup(key);
      if (kept !== MISS) return kept as T;
      const [version, value] = this.#inTransaction(versioned(cache, make())) as [number, T];
      return cache.keep(key, version, value, o.missing);
    });
  }

  protected async write<T>(program: Program<T>): Promise<T> {
    if (this.#readOnly) throw readOnlyFault();
    if (this.#held) await this.#free();
    try {
      return unlessBusy(() => this.#inTransaction.immediate(program) as T);
    } finally {
      this.cache?.wrote();
    }
  }

  /** `fn` under BEGIN IMMEDIATE, holding the connection: other calls wait until it ends. */
  protected async transaction<T>(fn: (inTx: InTransaction) => Promise<T>): Promise<T> {
    if (this.#readOnly) throw readOnlyFault();
    await this.#free();
    const run = (async () => {
      unlessBusy(() => this.db.exec('BEGIN IMMEDIATE')); // holding the lock, nothing else waits
      try {
        const out = await fn((program) => Promise.resolve(runSqlite(this.sql, program)));
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    })();
    this.#held = run;
    try {
      return await run;
    } finally {
      this.#held = undefined;
      this.cache?.wrote();
    }
  }

  async close(): Promise<void> {
    await this.#free();
    this.#replayLog?.close();
    this.db.close();
  }
}
