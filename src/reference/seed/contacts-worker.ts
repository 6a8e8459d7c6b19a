// A worker thread that writes the seed's contacts into a database file of their own while the
// seed's own thread writes bookings (aside.ts). Started through worker-entry.js.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { seedContacts } from './people.js';
import { Rng } from './rng.js';

export interface ContactsWork {
  readonly module: 'seed/contacts-worker';
  /** The file to write: new, removed by the seed when it is done with it. */
  readonly path: string;
  /** The CREATE TABLE statements of the tables to fill, as the database being seeded has them. */
  readonly tables: readonly string[];
  /** The generator's state where the contacts begin. */
  readonly rngState: number;
  readonly count: number;
}

/** What the worker answers once it is done: nothing, or what went wrong. */
export interface ContactsDone {
  readonly error?: string;
}

const work = workerData as ContactsWork;
const done = (m: ContactsDone) => parentPort!.postMessage(m);
const db = new Database(work.path);
try {
  // A scratch file: a crash loses only it, so no journal and no fsync.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (const sql of work.tables) db.exec(sql);
    seedContacts(db, new Rng(work.rngState), work.count);
  })();
  done({});
} catch (e) {
  // Sent as text: an error thrown across threads arrives without its message (SqliteError's).
  done({ error: e instanceof Error ? e.message : String(e) });
} finally {
  db.close();
}
