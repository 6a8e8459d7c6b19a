// `evgen seed`: a deterministic demo data set across every table, sized by flags.
import { INSERT_TRIGGER } from '../sqlite/attendee-counts.js';
import { isBusy, type Db } from '../sqlite/open.js';
import { ContactsAside } from './aside.js';
import { seedCatalogue } from './catalogue.js';
import { CONTACT_DRAWS, seedBookings, seedContacts, seedSubmissions } from './people.js';
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

/** From this many contacts (100,000 bookings) `seedFile` writes them on a second thread. */
export const CONTACTS_ASIDE_FROM = 50_000;

/** What is wrong with the sizes `options` asks for, or undefined (checked before anything is written). */
export function seedOptionsProblem(options: SeedOptions): string | undefined {
  for (const [name, n] of [
    ['events', options.events],
    ['bookings', options.bookings],
  ] as const)
    if (n !== undefined && !(Number.isSafeInteger(n) && n >= 0))
      return `${name}: ${n} is not a whole number of at least 0`;
  const bookings = options.bookings ?? DEFAULT_BOOKINGS;
  if (bookings > 0 && (options.events ?? DEFAULT_EVENTS) === 0)
    return `${bookings} bookings need at least one event`;
  return undefined;
}

/** Throws a RangeError saying what is wrong with `options`' sizes. */
export function checkSeedOptions(options: SeedOptions): void {
  const problem = seedOptionsProblem(options);
  if (problem !== undefined) throw new RangeError(problem);
}

/** Seeds an empty database; refuses one that already holds events. */
export function seed(db: Db, options: SeedOptions = {}): SeedSummary {
  checkSeedOptions(options);
  return seedInOneTransaction(db, options);
}

/** seed() once its sizes are checked. */
function seedInOneTransaction(db: Db, options: SeedOptions): SeedSummary {
  const restore = prepare(db);
  try {
    // One transaction: nothing is seen half-seeded.
    return db.transaction(() => {
      const s = seedAll(db, options, (rng, count) => seedContacts(db, rng, count));
      s.finish();
      return s.summary;
    })();
  } finally {
    restore();
  }
}

/**
 * `evgen seed`: as seed(), but a database file seeded outside any transaction with at least
 * `asideFrom` contacts gets them from a second thread (aside.ts), while this one writes bookings.
 */
export async function seedFile(
  db: Db,
  options: SeedOptions = {},
  asideFrom = CONTACTS_ASIDE_FROM,
): Promise<SeedSummary> {
  checkSeedOptions(options);
  const small = contactCount(options.bookings ?? DEFAULT_BOOKINGS) < asideFrom;
  if (small || db.memory || db.inTransaction) return seedInOneTransaction(db, options);
  const restore = prepare(db);
  try {
    const aside = new ContactsAside(db); // attached before the transaction, as SQLite requires
    try {
      return await withAside(db, aside, options);
    } finally {
      await aside.close();
    }
  } finally {
    restore();
  }
}

/** seed()'s one transaction, the contacts written by `aside` and copied in before submissions. */
async function withAside(db: Db, aside: ContactsAside, options: SeedOptions) {
  db.exec('BEGIN');
  try {
    const s = seedAll(db, options, (rng, count) => {
      aside.start(rng.state, count);
      rng.skip(CONTACT_DRAWS * count); // what seedContacts draws, drawn on the other thread
    });
    await aside.copyIn();
    s.finish();
    db.exec('COMMIT');
    return s.summary;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

const DEFAULT_EVENTS = 36;
const DEFAULT_BOOKINGS = 3_000;
const contactCount = (bookings: number) => Math.max(50, Math.ceil(bookings / 2));

/** Refuses a database that holds events; applies the seed's settings and returns their undoing. */
function prepare(db: Db): () => void {
  if ((db.prepare('SELECT count(*) FROM event').pluck().get() as number) > 0)
    throw new Error('the database already holds demo data; seed a new file');
  return seedSettings(db);
}

/**
 * Inside the seed's transaction: the insert trigger of the attendee counts is set aside while the
 * rows go in; `write` stores the counts the seed tallied (tally.ts) and puts the trigger back. (A
 * database at a schema before the counts, as a migration test makes, has no trigger.)
 */
function countsAside(db: Db): { tally: AttendeeTally; write: () => void } {
  const counted = db
    .prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'attendee_count_insert'",
    )
    .get();
  if (counted) db.exec('DROP TRIGGER attendee_count_insert');
  const tally = new AttendeeTally();
  return {
    tally,
    write: () => {
      if (!counted) return;
      tally.write(db);
      db.exec(INSERT_TRIGGER);
    },
  };
}

/**
 * The connection's settings while seeding; returns what puts them back. A new database, refused
 * if not empty: a crash while seeding loses nothing but the seed, so its commits skip the fsync
 * (a large share of a big seed's time). A large page cache keeps the tables being filled in
 * memory instead of rereading them from the OS (much of the system time of a big seed). Foreign
 * keys are not checked row by row: the seed
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

/** Writes `count` contacts from where `rng` is, and leaves `rng` past them. */
type ContactWriter = (rng: Rng, count: number) => void;

/**
 * Catalogue, contacts (through `writeContacts`) and bookings, the attendee counts set aside;
 * `finish` adds the submissions, which read contacts (so once they are in), and writes the counts.
 */
function seedAll(
  db: Db,
  options: SeedOptions,
  writeContacts: ContactWriter,
): { summary: SeedSummary; finish: () => void } {
  const events = options.events ?? DEFAULT_EVENTS;
  const bookings = options.bookings ?? DEFAULT_BOOKINGS;
  const rng = new Rng(options.seed ?? 1);
  const contacts = contactCount(bookings);
  const counts = countsAside(db);
  // Inside seed's one transaction: no savepoints of its own (each wrote every page it touched
  // into a sub-journal).
  const seeded = seedCatalogue(db, rng, events);
  writeContacts(rng, contacts);
  seedBookings(db, rng, seeded, contacts, bookings, counts.tally, options.onProgress);
  return {
    summary: { events, bookings, contacts },
    finish: () => {
      seedSubmissions(db, rng, seeded);
      counts.write();
    },
  };
}
