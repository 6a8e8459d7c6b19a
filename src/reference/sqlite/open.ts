// Opens the reference service's database: WAL, synchronous FULL (an acknowledged write survives
// kill -9 and power loss), foreign keys, and the versioned migrations applied at start-up.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { unavailable } from '../faults.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** Apply pending migrations (default true); workers open a database the server migrated. */
  readonly migrate?: boolean;
  /** Open for reading only: nothing is created, migrated or written. */
  readonly readOnly?: boolean;
}

/** Memory-mapped I/O per connection: address space only, the pages are the OS's file cache. */
export const MMAP_BYTES = 1024 * 1024 * 1024;

/** How long a connection waits for another's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/** SQLITE_BUSY and its extended codes: another connection holds a lock; never a sign of damage. */
export const isBusy = (e: unknown) =>
  (e as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;

/** A lock held past the busy time-out, as the service answers it (Unavailable); others as they are. */
export const busyAsFault = (e: unknown): unknown =>
  isBusy(e) ? unavailable('database busy: another connection held its lock too long', e) : e;

export function openDatabase(path: string, o: OpenOptions = {}): Db {
  if (path !== ':memory:' && !o.readOnly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, {
    readonly: o.readOnly ?? false,
    fileMustExist: o.readOnly ?? false,
  });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (!o.readOnly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // Reads through memory-mapped pages rather than a read() per page: a page of bookings touches
  // pages spread over the whole file, and at 100,000 bookings they no longer stay in SQLite's
  // own cache (through read() a page cost grew with the database).
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  db.pragma('foreign_keys = ON');
  // REPLACE then fires delete triggers too, so the attendee counts (migration 2) stay exact.
  db.pragma('recursive_triggers = ON');
  if (o.migrate ?? !o.readOnly) migrate(db);
  return db;
}

export const SCHEMA_MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)';

/**
 * Applies the migrations not yet recorded in schema_migrations, each in its own transaction. Each
 * is checked again under the write lock (BEGIN IMMEDIATE): processes started together on an older
 * database (serve and an operator command) would otherwise both apply it, and one would fail.
 */
export function migrate(db: Db): number[] {
  db.exec(SCHEMA_MIGRATIONS_TABLE);
  const done = new Set(
    db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
  );
  const applied: number[] = [];
  for (const [i, step] of MIGRATIONS.entries()) {
    const version = i + 1;
    if (done.has(version)) continue;
    const ran = db
      .transaction(() => {
        if (db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version))
          return false;
        if (typeof step === 'string') db.exec(step);
        else step(db);
        db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
          version,
          new Date().toISOString(),
        );
        return true;
      })
      .immediate();
    if (ran) applied.push(version);
  }
  return applied;
}

/** The schema version a database is at (0 when it has none). */
export function schemaVersion(db: Db): number {
  const has = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  return has
    ? ((db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ??
        0)
    : 0;
}
