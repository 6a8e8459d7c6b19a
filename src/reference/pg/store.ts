// The PostgreSQL store: ReferenceStore on a pool of connections, running the same store programs
// as the SQLite store. A read of one statement runs alone; a read of several in one snapshot; the
// booking and token transactions lock the rows they decide on (booking-tx.ts), so any number of
// nodes on one database never overbook and never use a single-use token twice.
import type { Program } from '../store/program.js';
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
import * as setup from '../store/setup.js';
import type { ReferenceStore, SearchFilter, StoreHealth } from '../store/store.js';
import { PgDatabase } from './database.js';
import { PostgresReplayStore } from './replay-store.js';

export class PostgresStore implements ReferenceStore {
  readonly replay: PostgresReplayStore;

  constructor(readonly db: PgDatabase) {
    this.replay = new PostgresReplayStore(db);
  }

  /** A store with a pool of at most `poolSize` connections. */
  static open(url: string, poolSize: number): PostgresStore {
    return new PostgresStore(PgDatabase.open(url, { poolSize }));
  }

  #one = <T>(p: Program<T>) => this.db.run(p, 'statement');
  #read = <T>(p: Program<T>) => this.db.run(p, 'read');
  #write = <T>(p: Program<T>) => this.db.run(p, 'write');

  bookings = (ids: readonly number[]) => this.#read(readBookings(ids));
  bookingPage = (eventId: number, skip: number, size: number) =>
    this.#read(readBookingPage(eventId, skip, size));
  bookingSummary = (id: number) => this.#one(readBookingSummary(id));
  cancelAttendee = (reference: string) => this.#write(writeCancelAttendee(reference));
  cancelBooking = (reference: string, at: string) => this.#write(writeCancelBooking(reference, at));
  bookingTransaction<T>(fn: Parameters<ReferenceStore['bookingTransaction']>[0]): Promise<T> {
    return this.db.transaction((inTx) => fn(bookingTransaction(inTx)) as Promise<T>);
  }

  eventDetails = (eventId: number, profiles: boolean) =>
    this.#read(readEventDetails(eventId, profiles));
  searchEvents = (f: SearchFilter, limit: number) => this.#read(readSearch(f, limit));
  calendarEvents = (from: string, to: string, archived: boolean) =>
    this.#read(catalogue.readCalendarEvents(from, to, archived));
  calendarAttendees = (eventId: number) => this.#read(catalogue.readCalendarAttendees(eventId));
  submissions = (eventId: number) => this.#read(catalogue.readSubmissions(eventId));
  shows = () => this.#read(catalogue.readShows());
  speakers = (series: string) => this.#one(catalogue.readSpeakers(series));
  subClientCompanies = () => this.#one(catalogue.readSubClientCompanies());

  eventExists = (eventId: number) => this.#one(setup.readEventExists(eventId));
  attendeeTypes = (eventId: number) => this.#read(setup.readAttendeeTypes(eventId));
  bookableSessions = (eventId: number) => this.#read(setup.readBookableSessions(eventId));
  attendeeStatuses = (eventId: number) => this.#read(setup.readAttendeeStatuses(eventId));
  customFields = (eventId: number) => this.#read(setup.readCustomFields(eventId));
  roadshowTickets = (id: number) => this.#read(setup.readRoadshowTickets(id));

  contactByEmail = (email: string) => this.#read(contacts.readContactByEmail(email));
  contactHistory = (id: number) => this.#one(contacts.readContactHistory(id));
  contactEvents = (id: number, archived: boolean, test: boolean) =>
    this.#read(contacts.readContactEvents(id, archived, test));
  tokenTransaction<T>(fn: Parameters<ReferenceStore['tokenTransaction']>[0]): Promise<T> {
    return this.db.transaction((inTx) => fn(tokenTransaction(inTx)) as Promise<T>);
  }

  lookupKey = (apiKey: string) => this.#one(lookupKey(apiKey));

  async health(): Promise<StoreHealth> {
    try {
      return await this.#read(storeHealth());
    } catch (e) {
      return { ok: false, schemaVersion: 0, detail: e instanceof Error ? e.message : String(e) };
    }
  }

  close = () => this.db.close();
}
