// The SQLite store: ReferenceStore on better-sqlite3. Every method runs its statements
// synchronously in one transaction (a read transaction for reads: one snapshot, one WAL read
// lock), so nothing else runs on the connection in between; the two transactions that take a
// callback (bookings, tokens) hold the connection for their callback, and other calls wait.

import { ServiceFault } from '@evgen/runtime';
import { columns, text } from '../store/columns.js';
import type { ReferenceStore, SearchFilter, StoreHealth } from '../store/store.js';
import {
  readBookingPage,
  readBookingSummary,
  readBookings,
  writeCancelAttendee,
  writeCancelBooking,
} from './bookings-store.js';
import { sqliteBookingTransaction, sqliteTokenTransaction } from './booking-tx.js';
import * as catalogue from './catalogue-store.js';
import * as contacts from './contacts-store.js';
import { readEventDetails, readSearch } from './events-store.js';
import { openDatabase, type Db, type OpenOptions } from './open.js';
import { SqliteReplayStore, openReplayDatabase } from './replay-store.js';
import * as setup from './setup-store.js';
import { StatementCache } from './statements.js';

const API_KEY = columns<{ secret: string; name: string }>({
  secret: text('secret'),
  name: text('name'),
});

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

  async #read<T>(fn: () => T): Promise<T> {
    if (this.#held) await this.#free();
    return this.db.transaction(fn)();
  }

  async #write<T>(fn: () => T): Promise<T> {
    if (this.#readOnly) throw readOnlyFault();
    if (this.#held) await this.#free();
    return this.db.transaction(fn).immediate();
  }

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

  bookings = (ids: readonly number[]) => this.#read(() => readBookings(this.sql, ids));
  bookingPage = (eventId: number, skip: number, size: number) =>
    this.#read(() => readBookingPage(this.sql, eventId, skip, size));
  bookingSummary = (id: number) => this.#read(() => readBookingSummary(this.sql, id));
  cancelAttendee = (reference: string) =>
    this.#write(() => writeCancelAttendee(this.sql, reference));
  cancelBooking = (reference: string, at: string) =>
    this.#write(() => writeCancelBooking(this.sql, reference, at));
  bookingTransaction<T>(fn: Parameters<ReferenceStore['bookingTransaction']>[0]): Promise<T> {
    return this.#hold(() => fn(sqliteBookingTransaction(this.sql)) as Promise<T>);
  }

  eventDetails = (eventId: number, profiles: boolean) =>
    this.#read(() => readEventDetails(this.sql, eventId, profiles));
  searchEvents = (f: SearchFilter, limit: number) =>
    this.#read(() => readSearch(this.sql, f, limit));
  calendarEvents = (from: string, to: string, archived: boolean) =>
    this.#read(() => catalogue.readCalendarEvents(this.sql, from, to, archived));
  calendarAttendees = (eventId: number) =>
    this.#read(() => catalogue.readCalendarAttendees(this.sql, eventId));
  submissions = (eventId: number) => this.#read(() => catalogue.readSubmissions(this.sql, eventId));
  shows = () => this.#read(() => catalogue.readShows(this.sql));
  speakers = (series: string) => this.#read(() => catalogue.readSpeakers(this.sql, series));
  subClientCompanies = () => this.#read(() => catalogue.readSubClientCompanies(this.sql));

  eventExists = (eventId: number) => this.#read(() => setup.readEventExists(this.sql, eventId));
  attendeeTypes = (eventId: number) => this.#read(() => setup.readAttendeeTypes(this.sql, eventId));
  bookableSessions = (eventId: number) =>
    this.#read(() => setup.readBookableSessions(this.sql, eventId));
  attendeeStatuses = (eventId: number) =>
    this.#read(() => setup.readAttendeeStatuses(this.sql, eventId));
  customFields = (eventId: number) => this.#read(() => setup.readCustomFields(this.sql, eventId));
  roadshowTickets = (id: number) => this.#read(() => setup.readRoadshowTickets(this.sql, id));

  contactByEmail = (email: string) =>
    this.#read(() => contacts.readContactByEmail(this.sql, email));
  contactHistory = (id: number) => this.#read(() => contacts.readContactHistory(this.sql, id));
  contactEvents = (id: number, archived: boolean, test: boolean) =>
    this.#read(() => contacts.readContactEvents(this.sql, id, archived, test));
  tokenTransaction<T>(fn: Parameters<ReferenceStore['tokenTransaction']>[0]): Promise<T> {
    return this.#hold(() => fn(sqliteTokenTransaction(this.sql)) as Promise<T>);
  }

  async lookupKey(apiKey: string): Promise<{ secret: string; name: string } | undefined> {
    if (this.#held) await this.#free();
    return this.sql.row(
      API_KEY,
      `SELECT ${API_KEY.exprs} FROM api_key WHERE api_key = ? AND revoked_at IS NULL`,
      apiKey,
    );
  }

  async health(): Promise<StoreHealth> {
    try {
      if (this.#held) await this.#free();
      const schemaVersion =
        this.sql.value<number>('SELECT max(version) FROM schema_migrations') ?? 0;
      this.sql.value('SELECT count(*) FROM event');
      return { ok: true, schemaVersion };
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
