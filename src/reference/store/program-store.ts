// ReferenceStore on store programs: which program answers each call, and how it must run (one
// statement alone, several in one read snapshot, a write transaction, or a transaction that holds
// the handler's steps), written once. Each dialect's store says how to run them.
import type { ReplayStore } from '@evgen/runtime';
import { bookingTransaction, tokenTransaction, type InTransaction } from './booking-tx.js';
import {
  readBooking,
  readBookingPage,
  readBookingSummary,
  writeCancelAttendee,
  writeCancelBooking,
} from './bookings.js';
import * as catalogue from './catalogue.js';
import * as contacts from './contacts.js';
import { readEventDetails, readSearch } from './events.js';
import type { Program } from './program.js';
import { lookupKey, storeHealth } from './service-reads.js';
import * as setup from './setup.js';
import type { ReferenceStore, SearchFilter, StoreHealth } from './store.js';

/** How a cached read runs where it is not kept, and what it keeps. */
export interface CachedRead {
  /** A program of one statement: atomic by itself, no snapshot needed. */
  readonly alone?: boolean;
  /** Keep what was not found too (where a refusal must not be told apart by its time). */
  readonly missing?: boolean;
}

/** API keys longer than this are not kept (the service issues 27 characters). */
export const MAX_KEPT_KEY_LENGTH = 64;

export abstract class ProgramStore implements ReferenceStore {
  abstract readonly replay: ReplayStore;
  /** A read of one statement (atomic by itself). */
  protected abstract one<T>(program: Program<T>): Promise<T>;
  /** A program of several reads, in one snapshot. */
  protected abstract read<T>(program: Program<T>): Promise<T>;
  protected abstract write<T>(program: Program<T>): Promise<T>;
  /**
   * A read that may be answered from memory, under `key` (which names the program and its
   * arguments), where the dialect can tell that nothing was committed since it was read (SQLite).
   * Default: read (or one, for a program of one statement).
   */
  protected cached<T>(_key: string, make: () => Program<T>, o: CachedRead = {}): Promise<T> {
    return o.alone ? this.one(make()) : this.read(make());
  }
  /** `fn` in one write transaction, its programs run inside it. */
  protected abstract transaction<T>(fn: (inTx: InTransaction) => Promise<T>): Promise<T>;
  abstract close(): Promise<void>;

  booking(id: number) {
    return this.cached(`booking ${id}`, () => readBooking(id));
  }
  bookingPage(eventId: number, skip: number, size: number) {
    return this.read(readBookingPage(eventId, skip, size));
  }
  bookingSummary(id: number) {
    return this.cached(`booking summary ${id}`, () => readBookingSummary(id), { alone: true });
  }
  cancelAttendee(reference: string) {
    return this.write(writeCancelAttendee(reference));
  }
  cancelBooking(reference: string, at: string) {
    return this.write(writeCancelBooking(reference, at));
  }
  bookingTransaction<T>(fn: Parameters<ReferenceStore['bookingTransaction']>[0]): Promise<T> {
    return this.transaction((inTx) => fn(bookingTransaction(inTx)) as Promise<T>);
  }

  eventDetails(eventId: number, profiles: boolean) {
    return this.cached(`event ${eventId} ${profiles}`, () => readEventDetails(eventId, profiles));
  }
  searchEvents(f: SearchFilter, limit: number) {
    return this.read(readSearch(f, limit));
  }
  calendarEvents(from: string, to: string, archived: boolean) {
    return this.read(catalogue.readCalendarEvents(from, to, archived));
  }
  calendarAttendees(eventId: number) {
    return this.read(catalogue.readCalendarAttendees(eventId));
  }
  submissions(eventId: number) {
    return this.read(catalogue.readSubmissions(eventId));
  }
  shows() {
    return this.read(catalogue.readShows());
  }
  speakers(series: string) {
    return this.one(catalogue.readSpeakers(series));
  }
  subClientCompanies() {
    return this.one(catalogue.readSubClientCompanies());
  }

  eventExists(eventId: number) {
    return this.one(setup.readEventExists(eventId));
  }
  attendeeTypes(eventId: number) {
    return this.read(setup.readAttendeeTypes(eventId));
  }
  bookableSessions(eventId: number) {
    return this.read(setup.readBookableSessions(eventId));
  }
  attendeeStatuses(eventId: number) {
    return this.read(setup.readAttendeeStatuses(eventId));
  }
  customFields(eventId: number) {
    return this.read(setup.readCustomFields(eventId));
  }
  roadshowTickets(id: number) {
    return this.read(setup.readRoadshowTickets(id));
  }

  contactByEmail(email: string) {
    return this.cached(`contact ${email}`, () => contacts.readContactByEmail(email));
  }
  contactHistory(id: number) {
    return this.one(contacts.readContactHistory(id));
  }
  contactEvents(id: number, archived: boolean, test: boolean) {
    return this.read(contacts.readContactEvents(id, archived, test));
  }
  tokenTransaction<T>(fn: Parameters<ReferenceStore['tokenTransaction']>[0]): Promise<T> {
    return this.transaction((inTx) => fn(tokenTransaction(inTx)) as Promise<T>);
  }

  /**
   * Unknown keys are kept like known ones, so that a refusal takes as long as an answer; a key of
   * unusual length (no key the service issues) is read each time, so none can fill memory.
   */
  lookupKey(apiKey: string) {
    if (apiKey.length > MAX_KEPT_KEY_LENGTH) return this.one(lookupKey(apiKey));
    return this.cached(`key ${apiKey}`, () => lookupKey(apiKey), { alone: true, missing: true });
  }

  async health(): Promise<StoreHealth> {
    try {
      return await this.read(storeHealth());
    } catch (e) {
      return { ok: false, schemaVersion: 0, detail: detailOf(e) };
    }
  }
}

/** For the operator: the error and what lies under it (a fault's cause is not on the wire). */
function detailOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  return e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message;
}
