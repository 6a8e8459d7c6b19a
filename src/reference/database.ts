// Where the reference service keeps its data, named by `--db`: a SQLite file (the embedded
// default) or a PostgreSQL URL (postgres://user@host:port/db, several nodes on one database).
// What the operator commands, the service's start-up and tests need of either, behind one
// interface: open (migrating), run a store program, seed, open a store.
import { resolve } from 'node:path';
import { openDatabase, type Db } from './sqlite/open.js';
import { SqliteStore } from './sqlite/store.js';
import { StatementCache, runSqlite } from './sqlite/statements.js';
import { isPostgresUrl, redactUrl } from './pg/connect.js';
import { PgDatabase } from './pg/database.js';
import { migratePostgres, seedNew, withSchemaLock } from './pg/startup.js';
import { PostgresStore } from './pg/store.js';
import { checkSeedOptions, seedFile, type SeedOptions, type SeedSummary } from './seed/index.js';
import { numbered, type Dialect, type Program } from './store/program.js';
import type { ReferenceStore } from './store/store.js';
import type { StoreObservers } from './ops/instance-stats.js';

export type DatabaseTarget =
  | { readonly dialect: 'sqlite'; readonly path: string }
  | { readonly dialect: 'postgres'; readonly url: string };

/** `--db` (or DATABASE_URL / EVGEN_DB): a postgres:// URL, anything else a file path. */
export function databaseTarget(db: string): DatabaseTarget {
  return isPostgresUrl(db)
    ? { dialect: 'postgres', url: db }
    : { dialect: 'sqlite', path: db === ':memory:' ? db : resolve(db) };
}

/** The target as messages show it (never a password). */
export const describeTarget = (t: DatabaseTarget) =>
  t.dialect === 'sqlite' ? t.path : redactUrl(t.url);

/** An open database for operator commands and tests. */
export interface ReferenceDatabase {
  readonly dialect: Dialect;
  /** A store program in one write transaction. */
  run<T>(program: Program<T>): Promise<T>;
  /** Ad-hoc SQL with `?` parameters (tests, checks): rows as objects by column name. */
  query<R extends object>(sql: string, ...params: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/** A store program on a SQLite connection, in one write transaction. */
export const runOnSqlite = <T>(db: Db, program: Program<T>): T =>
  db.transaction(() => runSqlite(new StatementCache(db), program)).immediate();

/** A SQLite connection as a ReferenceDatabase (closing it closes the connection). */
export function sqliteReferenceDatabase(db: Db): ReferenceDatabase {
  return {
    dialect: 'sqlite',
    run: (program) => Promise.resolve(runOnSqlite(db, program)),
    query: <R extends object>(sql: string, ...params: unknown[]) => {
      const statement = db.prepare(sql);
      if (statement.reader) return Promise.resolve(statement.all(...params) as R[]);
      statement.run(...params);
      return Promise.resolve([]);
    },
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

function postgresDatabase(db: PgDatabase): ReferenceDatabase {
  return {
    dialect: 'postgres',
    run: (program) => db.run(program, 'write'),
    query: (sql, ...params) => db.query(numbered(sql), params),
    close: () => db.close(),
  };
}

/** Opens a database, applying pending migrations unless `migrate` is false. */
export async function openReferenceDatabase(
  target: DatabaseTarget,
  o: { migrate?: boolean } = {},
): Promise<ReferenceDatabase> {
  if (target.dialect === 'sqlite')
    return sqliteReferenceDatabase(openDatabase(target.path, { migrate: o.migrate ?? true }));
  const db = PgDatabase.open(target.url, { poolSize: 2, name: 'evgen operator' });
  if (o.migrate ?? true)
    await withSchemaLock(db, migratePostgres).catch(async (e: unknown) => {
      await db.close();
      throw e;
    });
  return postgresDatabase(db);
}

/** `evgen seed`: fills an empty database with the demo data; refuses one that holds data. */
export async function seedDatabase(
  target: DatabaseTarget,
  options: SeedOptions,
): Promise<SeedSummary> {
  checkSeedOptions(options); // before a database is created or migrated for nothing
  if (target.dialect === 'sqlite') {
    const db = openDatabase(target.path);
    try {
      return await seedFile(db, options);
    } finally {
      db.close();
    }
  }
  const db = PgDatabase.open(target.url, { poolSize: 1, name: 'evgen seed' });
  try {
    return await withSchemaLock(db, async (c) => {
      await migratePostgres(c);
      return seedNew(c, options);
    });
  } finally {
    await db.close();
  }
}

export interface StoreOptions {
  readonly readOnly: boolean;
  /** SQLite read-only: where the replay record is kept. */
  readonly replayPath?: string | undefined;
  /** PostgreSQL: connections this store may hold at once. */
  readonly poolSize: number;
  /** SQLite: small reads answered from memory while nothing was committed since (default true). */
  readonly readCache?: boolean;
  /** What the store reports for the metrics (its pool, its replay record's upkeep). */
  readonly observe?: StoreObservers;
}

/** The store a worker (or the request loop) serves from. */
export function openStore(target: DatabaseTarget, o: StoreOptions): ReferenceStore {
  return target.dialect === 'sqlite'
    ? SqliteStore.open(target.path, {
        readOnly: o.readOnly,
        replayPath: o.replayPath,
        replayUpkeep: o.observe?.replay,
        readCache: o.readCache,
      })
    : PostgresStore.open(target.url, o.poolSize, o.observe);
}
