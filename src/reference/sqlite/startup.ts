// Start-up checks of the reference service's database, before anything is served: a damaged file
// is refused with a clear message (PRAGMA quick_check); a read-only one is refused unless the
// service is started read-only; an empty one is seeded exactly once, however many processes
// start on it at the same moment (the first seeds under the write lock, the others wait for it
// and find the data there).
import {
  SCHEMA_MIGRATIONS_TABLE,
  openDatabase,
  schemaVersion,
  BUSY_TIMEOUT_MS,
  isBusy,
  type Db,
} from './open.js';
import { MIGRATIONS } from './migrations.js';
import { ReplayLog, replayLogOf } from '../replay-log/replay-log.js';
import { moveEarlierReplay } from './replay-store.js';
import { seed, type SeedOptions } from '../seed/index.js';
import { damaged, openFailure } from './open-failure.js';
import { pauseSync } from '../pause.js';

export class StartupError extends Error {}

/** How long a process waits for another one seeding the same new database. */
export const SEED_WAIT_MS = 120_000;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** PRAGMA quick_check: every page and index structure, without the cross-checks of integrity_check. */
export function checkIntact(db: Db, path: string, readOnly = false): void {
  let result: string[];
  try {
    result = db.prepare('PRAGMA quick_check').pluck().all() as string[];
  } catch (e) {
    if (isBusy(e)) throw e;
    throw new StartupError(openFailure(path, e, readOnly));
  }
  if (result.length === 1 && result[0] === 'ok') return;
  // A finding can span lines ("*** in database main ***\nFreelist: …"); the message is one line.
  const findings = result.slice(0, 3).join('; ');
  throw new StartupError(damaged(path, findings.replace(/\s*\n\s*/g, ' ')));
}

/**
 * True when this connection can write (a read-only file, directory or mount cannot). SQLite opens
 * an unwritable file read-only without saying so and even grants the WAL write lock; only a write
 * shows it, so one is made and rolled back.
 */
function writable(db: Db): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec(SCHEMA_MIGRATIONS_TABLE);
    db.exec("INSERT INTO schema_migrations (version, applied_at) VALUES (-1, 'write probe')");
    return true;
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('SQLITE_READONLY')) return false;
    throw e;
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

export interface Prepared {
  /** Whether this start seeded the database. */
  readonly seeded: boolean;
}

type PrepareOptions = {
  readOnly?: boolean;
  seed?: SeedOptions;
  /** How long a lock another process holds is waited out. Default SEED_WAIT_MS. */
  lockWaitMs?: number;
};

/**
 * Checks (and, when new, seeds) the database at `path`; throws StartupError with the reason. A
 * lock another process holds past SQLite's busy time-out (one starting, migrating or seeding the
 * same file) is waited out, up to `lockWaitMs`: every step is safe to run again.
 */
export function prepareDatabase(path: string, o: PrepareOptions = {}): Prepared {
  const started = Date.now();
  const deadline = started + (o.lockWaitMs ?? SEED_WAIT_MS);
  for (;;) {
    try {
      return prepareOnce(path, o, deadline);
    } catch (e) {
      if (!isBusy(e)) throw e;
      if (Date.now() > deadline)
        throw new StartupError(
          `database ${path} is in use by another process, which held its lock for ${Math.round((Date.now() - started) / 1000)} s (${message(e)}): stop that process, or start again once it is done`,
        );
      pauseSync(50); // some SQLITE_BUSY codes come at once, without the busy time-out
    }
  }
}

function prepareOnce(path: string, o: PrepareOptions, deadline: number): Prepared {
  const readOnly = o.readOnly ?? false;
  // Opening, checking and probing a write fail for the file system's reasons as often as SQLite's.
  const opening = <T>(step: () => T): T => {
    try {
      return step();
    } catch (e) {
      if (isBusy(e) || e instanceof StartupError) throw e;
      throw new StartupError(openFailure(path, e, readOnly));
    }
  };
  const db = opening(() => openDatabase(path, { migrate: false, readOnly }));
  try {
    opening(() => checkIntact(db, path, readOnly));
    if (readOnly) {
      if (schemaVersion(db) !== MIGRATIONS.length)
        throw new StartupError(
          `database ${path} is at schema version ${schemaVersion(db)}, not ${MIGRATIONS.length}: start it once without --read-only to migrate it`,
        );
      return { seeded: false };
    }
    if (!opening(() => writable(db)))
      throw new StartupError(
        `database ${path} is read-only; make it writable, or serve reads only with --read-only`,
      );
    opening(() => openDatabase(path).close()); // migrations, serialised by their own write lock
    const replay = opening(() => new ReplayLog(replayLogOf(path)));
    try {
      opening(() => moveEarlierReplay(db, path, replay, Date.now()));
    } finally {
      replay.close();
    }
    return { seeded: seedOnce(db, o.seed, deadline) };
  } finally {
    db.close();
  }
}

/**
 * Seeds an empty database in one write transaction; a concurrent starter waits, then finds data.
 * Emptiness is read only under the write lock (every start takes it anyway, in `writable`): a
 * starter that looked before another one's seed committed would seed a second time.
 */
function seedOnce(db: Db, options: SeedOptions | undefined, deadline: number): boolean {
  const isEmpty = () => (db.prepare('SELECT count(*) FROM event').pluck().get() as number) === 0;
  for (;;) {
    try {
      return db
        .transaction(() => {
          if (!isEmpty()) return false;
          seed(db, options);
          return true;
        })
        .immediate();
    } catch (e) {
      // Another process holds the write lock (seeding): wait for it, up to the deadline.
      if (!isBusy(e) || Date.now() > deadline) throw e;
    }
  }
}

export { BUSY_TIMEOUT_MS };
