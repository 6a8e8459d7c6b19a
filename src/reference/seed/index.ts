// `evgen seed`: a deterministic demo data set across every table, sized by flags.
import type { Db } from '../db/open.js';
import { seedCatalogue } from './catalogue.js';
import { seedBookings, seedContacts, seedSubmissions } from './people.js';
import { Rng } from './rng.js';

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

/** Seeds an empty database; refuses one that already holds events. */
export function seed(db: Db, options: SeedOptions = {}): SeedSummary {
  const events = options.events ?? 36;
  const bookings = options.bookings ?? 3_000;
  if ((db.prepare('SELECT count(*) FROM event').pluck().get() as number) > 0)
    throw new Error('the database already holds demo data; seed a new file');
  const rng = new Rng(options.seed ?? 1);
  const contacts = Math.max(50, Math.ceil(bookings / 2));
  const seeded = db.transaction(() => {
    const ev = seedCatalogue(db, rng, events);
    seedContacts(db, rng, contacts);
    return ev;
  })();
  seedBookings(db, rng, seeded, contacts, bookings, options.onProgress);
  db.transaction(() => seedSubmissions(db, rng, seeded))();
  return { events, bookings, contacts };
}
