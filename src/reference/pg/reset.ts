// The reset test control on PostgreSQL: the shared database back to its state when the first node
// with --test-controls started (for a new database, the seeded state), for every node at once.
// That state is a copy of the data tables in a schema of its own (evgen_reset), taken once under
// the schema lock (so nodes started together agree on one), again only when the schema's version
// changed. A reset copies it back in one transaction, except the API keys (an integrator's keys
// outlive a reset), the migrations' bookkeeping and the replay record (a request seen stays seen);
// the attendee counts are made again by their triggers as the attendee rows go back in, as the
// seed makes them. Other nodes serve meanwhile: their calls wait for the reset's locks (or their
// statement time-out: Unavailable), then see the new rows; a read snapshot taken before still
// sees the old ones (DELETE, not TRUNCATE, which would show it empty tables).
import type pg from 'pg';
import type { DatabaseReset } from '../ops/reset.js';
import { KEPT_TABLES } from '../ops/reset.js';
import { StartupError } from '../sqlite/startup.js';
import { redactUrl } from './connect.js';
import { PgDatabase } from './database.js';
import { POSTGRES_MIGRATIONS } from './schema.js';
import { restartIdentity, seedTables, type Table } from './seed.js';
import { withSchemaLock } from './startup.js';

/** The schema holding the copy a reset restores. */
export const RESET_SCHEMA = 'evgen_reset';
/** Tables a trigger keeps from the attendee rows: emptied, then made again as the rows go back. */
const DERIVED = ['event_attendee_count', 'ticket_attendee_count'];
/** A reset copies every row of the database: longer than a request's statement time-out. */
export const RESET_TIMEOUT_MS = 120_000;

const snapshotOf = (t: Table) => `${RESET_SCHEMA}.${t.name}`;
const columns = (t: Table) => t.columns.join(', ');

/** Takes the copy unless one of this schema version is there. Call holding the schema lock. */
async function ensureSnapshot(c: pg.ClientBase, tables: readonly Table[]): Promise<void> {
  const version = POSTGRES_MIGRATIONS.length;
  const [found] = (
    await c.query<{ at: string | null }>(`SELECT to_regclass('${RESET_SCHEMA}.about') AS at`)
  ).rows;
  if (found?.at) {
    const [about] = (
      await c.query<{ version: number }>(`SELECT version FROM ${RESET_SCHEMA}.about`)
    ).rows;
    if (about?.version === version) return;
  }
  await PgDatabase.inTransaction(c, 'BEGIN', async () => {
    await c.query(`SET LOCAL statement_timeout = ${RESET_TIMEOUT_MS}`);
    await c.query(`DROP SCHEMA IF EXISTS ${RESET_SCHEMA} CASCADE`);
    await c.query(`CREATE SCHEMA ${RESET_SCHEMA}`);
    for (const t of tables)
      await c.query(`CREATE TABLE ${snapshotOf(t)} AS SELECT ${columns(t)} FROM ${t.name}`);
    await c.query(
      `CREATE TABLE ${RESET_SCHEMA}.about (version integer NOT NULL, taken_at text NOT NULL)`,
    );
    await c.query(`INSERT INTO ${RESET_SCHEMA}.about VALUES ($1, $2)`, [
      version,
      new Date().toISOString(),
    ]);
  });
}

/** Puts the copy back, in the transaction `c` is in. */
async function restore(c: pg.ClientBase, tables: readonly Table[]): Promise<void> {
  await c.query(`SET LOCAL statement_timeout = ${RESET_TIMEOUT_MS}`);
  // Every statement of another node on these tables waits from here until the commit, then reads
  // the new rows. Letting reads through is not enough: a read-committed booking waiting for a row
  // this deletes would find it gone after the commit (the row put back is another row version),
  // and answer NotFound for an event that is there. A transaction already holding one of them
  // finishes first, or deadlocks with this one, and PostgreSQL refuses one to be run again.
  const all = [...tables.map((t) => t.name), ...DERIVED];
  await c.query(`LOCK TABLE ${all.join(', ')} IN ACCESS EXCLUSIVE MODE`);
  for (const t of [...tables].reverse()) await c.query(`DELETE FROM ${t.name}`);
  for (const d of DERIVED) await c.query(`DELETE FROM ${d}`);
  for (const t of tables) {
    await c.query(
      `INSERT INTO ${t.name} (${columns(t)}) SELECT ${columns(t)} FROM ${snapshotOf(t)}`,
    );
    await restartIdentity(c, t);
  }
}

/** The reset of the PostgreSQL database at `url`, its copy taken if none is there yet. */
export async function postgresReset(url: string): Promise<DatabaseReset> {
  const tables = seedTables().filter((t) => !KEPT_TABLES.has(t.name));
  const db = PgDatabase.open(url, { poolSize: 1, name: 'evgen reset' });
  try {
    await withSchemaLock(db, (c) => ensureSnapshot(c, tables));
  } catch (e) {
    await db.close();
    throw new StartupError(
      `--test-controls cannot keep a copy to reset ${redactUrl(url)} to (schema ${RESET_SCHEMA}): ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return {
    async reset() {
      await db.writeOn((c) => restore(c, tables));
      return { tables: tables.length };
    },
    close: () => db.close(),
  };
}
