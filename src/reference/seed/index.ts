// `evgen seed`: a deterministic demo data set across every table, sized by flags.
import { INSERT_TRIGGER } from '../db/attendee-counts.js';
import { isBusy, type Db } from '../db/open.js';
import { seedCatalogue } from './catalogue.js';
import { seedBookings, seedContacts, seedSubmissions } from './people.js';
import { Rng } from './rng.js';
import { AttendeeTally } from './tally.js';

export interface SeedOptions {
  readonly events?: number;
  readonly bookings?: number;
  readonly seed?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface SeedSummary {
  readonly events: number;
  readonly bookings: number;
  readonly contacts: number;
}

/** SQLite page cache while seeding, KiB. */
const SEED_CACHE_KIB = 256 * 1024;
const SEED_PRAGMAS = {
  synchronous: 'OFF',
  cache_size: -SEED_CACHE_KIB,
  foreign_keys: 'OFF',
  temp_store: 'MEMORY',
};

/** Seeds an empty database; refuses one that already holds events. */
export function seed(db: Db, options: SeedOptions = {}): SeedSummary {
  const events = options.events ?? 36;
  const bookings = options.bookings ?? 3_000;
  if ((db.prepare('SELECT count(*) FROM event').pluck().get() as number) > 0)
    throw new Error('the database already holds demo data; seed a new file');
  const restore = seedSettings(db);
  try {
    // One transaction: nothing is seen half-seeded, and the insert trigger of the attendee counts
    // is set aside while the rows go in, the counts tallied by the seed (tally.ts).
    // (A database at a schema before the counts, as a migration test makes, has no trigger.)
    const counted = db
      .prepare(
        "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'attendee_count_insert'",
      )
      .get();
    return db.transaction(() => {
      if (counted) db.exec('DROP TRIGGER attendee_count_insert');
      const tally = new AttendeeTally();
      const summary = seedAll(db, events, bookings, tally, options);
      if (counted) {
        tally.write(db);
        db.exec(INSERT_TRIGGER);
      }
      return summary;
    })();
  } finally {
    restore();
  }
}

/**
 * The connection's settings while seeding; returns what puts them back. A new database, refused
 * if not empty: a crash while seeding loses nothing but the seed, so its commits skip the fsync
 * (measured: a third of the time of 1,000,000 bookings). A large page cache keeps the tables being
 * filled in memory instead of rereading them from the OS (system time was a third of the total at
 * 1,000,000 bookings). Foreign keys are not checked row by row (an eighth of the time): the seed
 * writes parents before children, and a test checks its rows with foreign_key_check. Statement
 * journals stay in memory, and a rollback journal (rollbackJournal) writes each page once.
 * Inside a caller's transaction, as at a first start, the caller's settings stay: foreign keys and
 * the journal cannot change there.
 */
function seedSettings(db: Db): () => void {
  if (db.inTransaction) return () => {};
  const before = Object.keys(SEED_PRAGMAS).map(
    (p) => `${p} = ${String(db.pragma(p, { simple: true }))}`,
  );
  for (const [p, v] of Object.entries(SEED_PRAGMAS)) db.pragma(`${p} = ${v}`);
  const journal = rollbackJournal(db);
  return () => {
    for (const p of before) db.pragma(p);
    if (journal) db.pragma(`journal_mode = ${journal}`);
  };
}

/**
 * A rollback journal instead of the WAL while seeding: each page is written once, not into the
 * WAL and then into the file (a tenth of the time). A crash rolls the file back to empty as it is
 * next opened (a test kills a seed), and openDatabase puts every connection back in WAL mode. It
 * needs the file to itself: with another connection on it, the seed keeps the WAL. Returns the
 * mode to go back to, if it changed.
 */
function rollbackJournal(db: Db): string | undefined {
  const mode = String(db.pragma('journal_mode', { simple: true }));
  if (mode !== 'wal') return undefined;
  try {
    db.pragma('journal_mode = DELETE');
    return mode;
  } catch (e) {
    if (isBusy(e)) return undefined;
    throw e;
  }
}

function seedAll(
  db: Db,
  events: number,
  bookings: number,
  tally: AttendeeTally,
  options: SeedOptions,
): SeedSummary {
  const rng = new Rng(options.seed ?? 1);
  const contacts = Math.max(50, Math.ceil(bookings / 2));
  // Inside seed's one transaction: no savepoints of its own (each wrote every page it touched
  // into a sub-journal).
  const seeded = seedCatalogue(db, rng, events);
  seedContacts(db, rng, contacts);
  seedBookings(db, rng, seeded, contacts, bookings, tally, options.onProgress);
  seedSubmissions(db, rng, seeded);
  return { events, bookings, contacts };
}
