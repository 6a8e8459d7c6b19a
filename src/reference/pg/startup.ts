// Start-up on PostgreSQL: the versioned migrations and the first seed, under one advisory lock, so
// that any number of nodes starting at the same moment on a new (or older) database migrate it
// once and seed it once; the others wait for the lock, then find the schema and the data there.
import type pg from 'pg';
import type { SeedOptions, SeedSummary } from '../seed/index.js';
import { StartupError } from '../sqlite/startup.js';
import { run, statement, value, values } from '../store/program.js';
import { redactUrl, runPostgres } from './connect.js';
import { PgDatabase } from './database.js';
import { POSTGRES_MIGRATIONS } from './schema.js';
import { seedPostgres } from './seed.js';

/** The advisory lock every node takes to migrate and seed (any constant all nodes agree on). */
export const SCHEMA_LOCK = 7_265_676_501;
/** How long start-up may wait for the lock (another node seeding) and run one statement. */
export const STARTUP_STATEMENT_TIMEOUT_MS = 120_000;

const MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at text NOT NULL)';
const APPLIED = statement('SELECT version FROM schema_migrations');
const RECORD = statement('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
const HAS_EVENTS = statement('SELECT 1 FROM event LIMIT 1');

/** `fn` on one connection holding the schema lock (released even when `fn` throws). */
export async function withSchemaLock<T>(
  db: PgDatabase,
  fn: (c: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return db.withConnection(async (c) => {
    await c.query(`SET statement_timeout = ${STARTUP_STATEMENT_TIMEOUT_MS}`);
    await c.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
    try {
      return await fn(c);
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]);
    }
  });
}

/** Applies the migrations not yet recorded, each in its own transaction. Call holding the lock. */
export async function migratePostgres(c: pg.ClientBase): Promise<number[]> {
  await c.query(MIGRATIONS_TABLE);
  const done = new Set(await runPostgres(c, values<number>(APPLIED)));
  const applied: number[] = [];
  for (const [i, step] of POSTGRES_MIGRATIONS.entries()) {
    const version = i + 1;
    if (done.has(version)) continue;
    await PgDatabase.inTransaction(c, 'BEGIN', async () => {
      await c.query(step);
      await runPostgres(c, run(RECORD, version, new Date().toISOString()));
    });
    applied.push(version);
  }
  return applied;
}

/** Seeds an empty database in one transaction; false when it holds data. Call holding the lock. */
export async function seedOnce(
  c: pg.ClientBase,
  options: SeedOptions | undefined,
): Promise<boolean> {
  if ((await runPostgres(c, value(HAS_EVENTS))) !== undefined) return false;
  await PgDatabase.inTransaction(c, 'BEGIN', () => seedPostgres(c, options));
  return true;
}

/** `evgen seed` on PostgreSQL: refuses a database that holds data, as on SQLite. */
export async function seedNew(c: pg.ClientBase, options: SeedOptions): Promise<SeedSummary> {
  if ((await runPostgres(c, value(HAS_EVENTS))) !== undefined)
    throw new Error('the database already holds demo data; seed a new database');
  return PgDatabase.inTransaction(c, 'BEGIN', () => seedPostgres(c, options));
}

/** Migrates and (when new) seeds the database at `url`; whether this start seeded it. */
export async function preparePostgres(
  url: string,
  o: { seed?: SeedOptions } = {},
): Promise<{ seeded: boolean }> {
  const db = PgDatabase.open(url, { poolSize: 1, name: 'evgen start-up' });
  try {
    return await withSchemaLock(db, async (c) => {
      await migratePostgres(c);
      return { seeded: await seedOnce(c, o.seed) };
    });
  } catch (e) {
    throw new StartupError(
      `database ${redactUrl(url)} cannot be prepared: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    await db.close();
  }
}
