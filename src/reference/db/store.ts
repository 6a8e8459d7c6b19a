// The SQLite store: ReferenceStore on better-sqlite3. Every method runs its statements
// synchronously in one transaction (a read transaction for reads: one snapshot, one WAL read
// lock), so nothing else runs on the connection in between; the two transactions that take a
// callback (bookings, tokens) hold the connection for their callback, and other calls wait.

import { ServiceFault } from '@evgen/runtime';
import { bookingTransaction, tokenTransaction } from '../store/booking-tx.js';
import {
  readBookingPage,
  readBookingSummary,
  readBookings,
  writeCancelAttendee,
  writeCancelBooking,
} from '../store/bookings.js';
import * as catalogue from '../store/catalogue.js';
import * as contacts from '../store/contacts.js';
import { readEventDetails, readSearch } from '../store/events.js';
import { lookupKey, storeHealth } from '../store/service-reads.js';
import type { Program } from '../store/program.js';
import * as setup from '../store/setup.js';
import type { ReferenceStore, SearchFilter, StoreHealth } from '../store/store.js';
import { openDatabase, type Db, type OpenOptions } from './open.js';
import { SqliteReplayStore, openReplayDatabase } from './replay-store.js';
import { StatementCache, runSqlite } from './statements.js';

/** A write on a read-only service: InvalidRequest, as the README says. */
const readOnlyFault = () => new ServiceFault('InvalidRequest', 'read-only service');

export interface StoreOptions extends OpenOptions {
  /** Where replay entries are written when the database itself is read-only. */
  readonly replayPath?: string | undefined;
}

export class SqliteStore implements ReferenceStore {
  readonly sql: StatementCache;
  readonly replay: SqliteReplayStore;
  readonly #replayDb: Db;
  readonly #readOnly: boolean;
  /** Set while a callback transaction holds the connection. */
  #held: Promise<unknown> | undefined;

  /** A store on an open connection (migrated); replay entries go through a second connection. */
  constructor(
    readonly db: Db,
    o: StoreOptions = {},
  ) {
    this.#readOnly = o.readOnly ?? false;
    this.sql = new StatementCache(db);
    // An in-memory database (tests) has no file a second connection could open.
    this.#replayDb = db.memory
      ? db
      : openReplayDatabase(o.replayPath ?? db.name, o.replayPath !== undefined);
    this.replay = new SqliteReplayStore(this.#replayDb);
  }

  static open(path: string, o: StoreOptions = {}): SqliteStore {
    return new SqliteStore(openDatabase(path, { ...o, migrate: false }), o);
  }

  async #free(): Promise<void> {
    while (this.#held) await this.#held.catch(() => undefined);
  }

  /** A read in one read transaction (one snapshot). */
  async #read<T>(program: Program<T>): Promise<T> {
    if (this.#held) await this.#free();
    return this.db.transaction(() => runSqlite(this.sql, program))();
  }

  async #write<T>(program: Program<T>): Promise<T> {
    if (this.#readOnly) throw readOnlyFault();
    if (this.#held) await this.#free();
    return this.db.transaction(() => runSqlite(this.sql, program)).immediate();
  }

  /** A program inside the transaction #hold holds. */
  readonly #inHeld = <T>(program: Program<T>): Promise<T> =>
    Promise.resolve(runSqlite(this.sql, program));

  async #hold<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#readOnly) throw readOnlyFault();
    await this.#free();
    const run = (async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn();
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    })();
    this.#held = run;
    try {
      return await run;
    } finally {
      this.#held = undefined;
    }
  }

  bookings = (ids: readonly number[]) => this.#read(readBookings(ids));
  bookingPage = (eventId: number, skip: number, size: number) =>
    this.#read(readBookingPage(eventId, skip, size));
  bookingSummary = (id: number) => this.#read(readBookingSummary(id));
  cancelAttendee = (reference: string) => this.#write(writeCancelAttendee(reference));
  cancelBooking = (reference: string, at: string) => this.#write(writeCancelBooking(reference, at));
  bookingTransaction<T>(fn: Parameters<ReferenceStore['bookingTransaction']>[0]): Promise<T> {
    return this.#hold(() => fn(bookingTransaction(this.#inHeld)) as Promise<T>);
  }

  eventDetails = (eventId: number, profiles: boolean) =>
    this.#read(readEventDetails(eventId, profiles));
  searchEvents = (f: SearchFilter, limit: number) => this.#read(readSearch(f, limit));
  calendarEvents = (from: string, to: string, archived: boolean) =>
    this.#read(catalogue.readCalendarEvents(from, to, archived));
  calendarAttendees = (eventId: number) => this.#read(catalogue.readCalendarAttendees(eventId));
  submissions = (eventId: number) => this.#read(catalogue.readSubmissions(eventId));
  shows = () => this.#read(catalogue.readShows());
  speakers = (series: string) => this.#read(catalogue.readSpeakers(series));
  subClientCompanies = () => this.#read(catalogue.readSubClientCompanies());

  eventExists = (eventId: number) => this.#read(setup.readEventExists(eventId));
  attendeeTypes = (eventId: number) => this.#read(setup.readAttendeeTypes(eventId));
  bookableSessions = (eventId: number) => this.#read(setup.readBookableSessions(eventId));
  attendeeStatuses = (eventId: number) => this.#read(setup.readAttendeeStatuses(eventId));
  customFields = (eventId: number) => this.#read(setup.readCustomFields(eventId));
  roadshowTickets = (id: number) => this.#read(setup.readRoadshowTickets(id));

  contactByEmail = (email: string) => this.#read(contacts.readContactByEmail(email));
  contactHistory = (id: number) => this.#read(contacts.readContactHistory(id));
  contactEvents = (id: number, archived: boolean, test: boolean) =>
    this.#read(contacts.readContactEvents(id, archived, test));
  tokenTransaction<T>(fn: Parameters<ReferenceStore['tokenTransaction']>[0]): Promise<T> {
    return this.#hold(() => fn(tokenTransaction(this.#inHeld)) as Promise<T>);
  }

  async lookupKey(apiKey: string): Promise<{ secret: string; name: string } | undefined> {
    if (this.#held) await this.#free();
    return runSqlite(this.sql, lookupKey(apiKey));
  }

  async health(): Promise<StoreHealth> {
    try {
      return await this.#read(storeHealth());
    } catch (e) {
      return { ok: false, schemaVersion: 0, detail: e instanceof Error ? e.message : String(e) };
    }
  }

  async close(): Promise<void> {
    await this.#free();
    if (this.#replayDb !== this.db) this.#replayDb.close();
    this.db.close();
  }
}
