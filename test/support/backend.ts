// The database a test runs the reference service on: a SQLite file (the integration tier) or a
// PostgreSQL database on the pg tier's server (EVGEN_TEST_BACKEND=postgres, set by that tier). The
// tests of the matrix (test/vitest.config.ts, PG_MATRIX) ask for their database here, so the same
// test runs on both.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import {
  databaseTarget,
  openReferenceDatabase,
  type ReferenceDatabase,
} from '../../src/reference/database.js';
import { serverAt } from '../../src/reference/pg/local-server.js';

export type Backend = 'sqlite' | 'postgres';
export const BACKEND: Backend =
  process.env.EVGEN_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** What `--db` takes: a file path or a postgres:// URL. */
  readonly target: string;
  /** Removes the file's folder (a PostgreSQL database goes with the tier's server). */
  remove(): Promise<void>;
}

/** A new, empty database for this backend. */
export async function newDatabase(): Promise<TestDatabase> {
  if (BACKEND === 'postgres')
    return {
      target: await serverAt(inject('postgres').dir).createDatabase(),
      remove: async () => {},
    };
  const dir = await mkdtemp(join(tmpdir(), 'evgen-db-'));
  return {
    target: join(dir, 'events.sqlite'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** `fn` on the database at `target` (opened without migrating), closed afterwards. */
export async function withDatabase<T>(
  target: string,
  fn: (db: ReferenceDatabase) => Promise<T>,
): Promise<T> {
  const db = await openReferenceDatabase(databaseTarget(target), { migrate: false });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Ad-hoc reads of a test: the first row, its first value, and the one column of every row. */
export function reader(db: ReferenceDatabase) {
  const column = async <T>(sql: string, ...params: unknown[]): Promise<T[]> =>
    (await db.query<Record<string, T>>(sql, ...params)).map((r) => Object.values(r)[0]!);
  return {
    one: async <T extends object>(sql: string, ...params: unknown[]): Promise<T> => {
      const [row] = await db.query<T>(sql, ...params);
      if (row === undefined) throw new Error(`no row: ${sql}`);
      return row;
    },
    column,
    value: async <T>(sql: string, ...params: unknown[]): Promise<T> => {
      const [first] = await column<T>(sql, ...params);
      if (first === undefined) throw new Error(`no row: ${sql}`);
      return first;
    },
  };
}
