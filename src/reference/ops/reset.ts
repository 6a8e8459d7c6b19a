// Resetting a SQLite database to the state it had when the service started (for a new database,
// the seeded state): a copy is taken at start (VACUUM INTO), and a reset copies every table back in
// one transaction, except the API keys (an integrator's keys outlive a reset) and the schema's
// bookkeeping. Triggers are set aside while the rows go in, so derived tables (attendee counts)
// come back exactly as they were. Worker threads keep their connections: they read the new rows
// at their next statement. On PostgreSQL: pg/reset.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../sqlite/open.js';

/** Tables a reset leaves alone. */
export const KEPT_TABLES: ReadonlySet<string> = new Set(['api_key', 'schema_migrations']);

export interface DatabaseReset {
  /** Puts every table back as it was at start; the number of tables copied. */
  reset(): Promise<{ tables: number }>;
  close(): Promise<void>;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function sqliteReset(path: string): DatabaseReset {
  const dir = mkdtempSync(join(tmpdir(), 'evgen-reset-'));
  const snapshot = join(dir, 'start.sqlite');
  const db: Db = openDatabase(path);
  db.prepare('VACUUM INTO ?').run(snapshot);
  db.prepare('ATTACH DATABASE ? AS start').run(snapshot);
  const tables = (
    db
      .prepare(
        "SELECT name FROM start.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .pluck()
      .all() as string[]
  ).filter((t) => !KEPT_TABLES.has(t));
  const copy = db.transaction(() => {
    const triggers = db
      .prepare("SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger'")
      .all() as { name: string; sql: string }[];
    for (const t of triggers) db.exec(`DROP TRIGGER main.${quoted(t.name)}`);
    db.pragma('defer_foreign_keys = ON');
    for (const t of tables) db.exec(`DELETE FROM main.${quoted(t)}`);
    for (const t of tables)
      db.exec(`INSERT INTO main.${quoted(t)} SELECT * FROM start.${quoted(t)}`);
    for (const t of triggers) db.exec(t.sql);
  });
  return {
    reset() {
      copy.immediate();
      return Promise.resolve({ tables: tables.length });
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}
