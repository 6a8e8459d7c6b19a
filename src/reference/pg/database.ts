// A PostgreSQL database of the reference service: a bounded pool and the ways store programs run
// on it. A read of several statements runs in one REPEATABLE READ, READ ONLY transaction (one
// snapshot, as SQLite's read transaction); a write in one READ COMMITTED transaction; a
// callback transaction (a booking) is run again when PostgreSQL refuses it for a deadlock or a
// serialization failure. Errors that mean the database cannot be reached become the 503 fault.
import type pg from 'pg';
import type { PoolCounts } from '../ops/instance-stats.js';
import type { Program } from '../store/program.js';
import { asFault, createPool, isRetryable, isUnavailable, runPostgres } from './connect.js';

/** Times a refused transaction is tried again before its error is answered. */
export const TRANSACTION_ATTEMPTS = 5;

export type Mode = 'statement' | 'read' | 'write';
const BEGIN: Record<Exclude<Mode, 'statement'>, string> = {
  read: 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY',
  write: 'BEGIN',
};

export interface PgOpenOptions {
  readonly poolSize: number;
  readonly name?: string;
  /** Told what the pool holds whenever it changes (/metrics: ops/instance-stats.ts). */
  readonly onPoolChange?: (counts: PoolCounts) => void;
}

export class PgDatabase {
  /** Tells onPoolChange what the pool holds now. */
  readonly #report: () => void;

  private constructor(
    readonly pool: pg.Pool,
    { poolSize: max, onPoolChange }: PgOpenOptions,
  ) {
    this.#report = onPoolChange
      ? () =>
          onPoolChange({
            total: pool.totalCount,
            idle: pool.idleCount,
            waiting: pool.waitingCount,
            max,
          })
      : () => undefined;
    // Checking out and releasing report in withConnection; a connection closed idle, here; and
    // the pool's size from the start, before any connection is opened.
    if (onPoolChange) pool.on('remove', this.#report);
    this.#report();
  }

  static open(url: string, o: PgOpenOptions): PgDatabase {
    return new PgDatabase(createPool(url, o.poolSize, o.name), o);
  }

  /**
   * A connection of the pool for `fn`; dropped (not returned) when it broke. A checked-out client
   * has no listener of the pool's: a connection that breaks between two statements emits 'error'
   * on it, which would kill the thread; the statement that follows fails, and that failure counts.
   */
  async withConnection<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    const wait = this.pool.idleCount === 0; // for a busy connection, or a new one
    const connecting = this.pool.connect();
    if (wait) this.#report();
    try {
      client = await connecting;
    } catch (e) {
      throw asFault(e);
    } finally {
      this.#report();
    }
    let broken: Error | undefined;
    const onError = (e: Error) => (broken = e);
    client.on('error', onError);
    let failed: unknown;
    try {
      return await fn(client);
    } catch (e) {
      failed = e;
      throw asFault(e);
    } finally {
      client.off('error', onError);
      client.release(
        broken ?? (failed instanceof Error && isUnavailable(failed) ? failed : undefined),
      );
      this.#report();
    }
  }

  /** `fn` between BEGIN and COMMIT; ROLLBACK when it throws (and the error is what it threw). */
  static async inTransaction<T>(c: pg.ClientBase, begin: string, fn: () => Promise<T>): Promise<T> {
    await c.query(begin);
    try {
      const out = await fn();
      await c.query('COMMIT');
      return out;
    } catch (e) {
      if (!isUnavailable(e)) await c.query('ROLLBACK');
      throw e;
    }
  }

  /** A program: one statement alone, several in a read snapshot, or a write transaction. */
  run<T>(program: Program<T>, mode: Mode): Promise<T> {
    return this.withConnection((c) =>
      mode === 'statement'
        ? runPostgres(c, program)
        : PgDatabase.inTransaction(c, BEGIN[mode], () => runPostgres(c, program)),
    );
  }

  /** `fn` in one write transaction, its programs on its connection; again when refused (40001, 40P01). */
  transaction<T>(fn: (inTx: <U>(p: Program<U>) => Promise<U>) => Promise<T>): Promise<T> {
    return this.writeOn((c) => fn((program) => runPostgres(c, program)));
  }

  /** `fn` in one write transaction on one connection; again when refused (40001, 40P01). */
  writeOn<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withConnection(async (c) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await PgDatabase.inTransaction(c, 'BEGIN', () => fn(c));
        } catch (e) {
          if (!isRetryable(e) || attempt >= TRANSACTION_ATTEMPTS) throw e;
        }
      }
    });
  }

  /** Ad-hoc SQL with $1… parameters (operator commands and tests): rows as objects. */
  query<R extends object>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.withConnection(async (c) => (await c.query<R>(sql, [...params])).rows);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
