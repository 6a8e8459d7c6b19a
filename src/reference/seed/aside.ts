// The seed's contacts written on a second core: a worker thread writes them into a file of their
// own (contacts-worker.ts) while this thread writes the bookings, then one INSERT … SELECT per
// table copies them in. With the same CREATE TABLE on both sides SQLite copies a table's pages
// without decoding its rows: 500,000 contacts in about a second here, against 16 s to write them
// on this thread, which had them before the bookings (they depend on nothing but their count).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db } from '../sqlite/open.js';
import type { ContactsDone, ContactsWork } from './contacts-worker.js';

/** The tables seedContacts fills, parents first. */
const TABLES = ['contact', 'contact_profile_value'];
const SCHEMA = 'seed_contacts';
const ENTRY = new URL('../worker-entry.js', import.meta.url);

export class ContactsAside {
  /** A folder of this seed's own (two seeds never share one); a seed killed half-way leaves it. */
  readonly #dir = mkdtempSync(join(tmpdir(), 'evgen-seed-'));
  readonly #path = join(this.#dir, 'contacts.sqlite');
  #worker: Worker | undefined;
  #done: Promise<void> | undefined;

  /** Attaches the file the contacts go to (before the seed's transaction: SQLite attaches only outside one). */
  constructor(private readonly db: Db) {
    try {
      db.prepare(`ATTACH ? AS ${SCHEMA}`).run(this.#path);
    } catch (e) {
      rmSync(this.#dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** Starts writing `count` contacts from generator state `rngState`, on a worker thread. */
  start(rngState: number, count: number): void {
    const tables = this.db
      .prepare(
        `SELECT sql FROM main.sqlite_master WHERE tbl_name IN (${TABLES.map(() => '?').join(', ')}) AND sql IS NOT NULL ORDER BY rowid`,
      )
      .pluck()
      .all(...TABLES) as string[];
    const work: ContactsWork = {
      module: 'seed/contacts-worker',
      path: this.#path,
      tables,
      rngState,
      count,
    };
    const worker = (this.#worker = new Worker(ENTRY, { workerData: work }));
    this.#done = new Promise((resolve, reject) => {
      let answer: ContactsDone | undefined;
      worker.once('message', (m: ContactsDone) => (answer = m));
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (answer?.error !== undefined) reject(new Error(`writing contacts: ${answer.error}`));
        else if (answer && code === 0) resolve();
        else reject(new Error(`the thread writing contacts stopped (exit code ${code})`));
      });
    });
    // Its failure is reported by copyIn; if the seed fails first, nobody waits for it.
    this.#done.catch(() => undefined);
  }

  /** Waits for the worker, then copies its rows into the database (inside the seed's transaction). */
  async copyIn(): Promise<void> {
    await this.#done;
    for (const t of TABLES) this.db.exec(`INSERT INTO main.${t} SELECT * FROM ${SCHEMA}.${t}`);
  }

  /** Stops the worker if it still runs, detaches and removes the file (after the transaction). */
  async close(): Promise<void> {
    await this.#worker?.terminate();
    this.db.exec(`DETACH ${SCHEMA}`);
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
