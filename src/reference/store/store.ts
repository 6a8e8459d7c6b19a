// The reference service's data access: one interface, asynchronous at its boundary, that each
// database dialect implements (SQLite in ../db; a PostgreSQL store implements the same). Handlers
// are written once against it. A read returns everything one answer needs, read in one snapshot;
// `undefined` means the record asked for (event, contact, roadshow...) does not exist. Writes
// that check before they write run in `bookingTransaction`, which holds the write lock throughout.
import type { ReplayStore } from '@evgen/runtime';
import type * as R from './records.js';

export interface BookingTransaction {
  context(p: {
    eventId: number;
    attendeeTypeId: number;
    ticketTypeId: number;
    bookingStatusId: number;
    contactId: number;
  }): Promise<R.BookingContext>;
  /** The ids the next booking and its attendee get. */
  nextIds(): Promise<{ bookingId: number; attendeeId: number }>;
  /** The booking, its lead attendee and its BookingUpdated e-mail in the outbox. */
  insert(b: R.NewBooking): Promise<void>;
}

export interface TokenTransaction {
  token(tokenType: string, value: string): Promise<R.TokenRow | undefined>;
  markUsed(id: number, at: string): Promise<void>;
}

export interface StoreHealth {
  readonly ok: boolean;
  readonly schemaVersion: number;
  readonly detail?: string;
}

export interface ReferenceStore {
  // Bookings
  /** One booking with its attendees and their parts; undefined when there is no such booking. */
  booking(id: number): Promise<R.BookingSet | undefined>;
  /** A page of an event's bookings by BookingId; undefined when the event does not exist. */
  bookingPage(eventId: number, skip: number, size: number): Promise<R.BookingSet | undefined>;
  bookingSummary(bookingId: number): Promise<R.BookingSummaryRow | undefined>;
  /** Sets the attendee to its event's default cancelled status; false when there is no such attendee. */
  cancelAttendee(reference: string): Promise<boolean>;
  /** The booking to Cancelled and its attendees to the default cancelled status; false when unknown. */
  cancelBooking(reference: string, at: string): Promise<boolean>;
  bookingTransaction<T>(fn: (tx: BookingTransaction) => Promise<T>): Promise<T>;

  // Events
  eventDetails(eventId: number, profiles: boolean): Promise<R.EventDetailsRecord | undefined>;
  searchEvents(filter: SearchFilter, limit: number): Promise<R.EventSearchResult>;
  calendarEvents(from: string, to: string, includeArchived: boolean): Promise<R.CalendarEvents>;
  calendarAttendees(eventId: number): Promise<R.CalendarAttendees | undefined>;
  submissions(eventId: number): Promise<R.Submissions | undefined>;
  shows(): Promise<R.Shows>;
  speakers(series: string): Promise<R.SpeakerRow[]>;
  subClientCompanies(): Promise<R.SubClientCompanyRow[]>;

  // Event set-up
  eventExists(eventId: number): Promise<boolean>;
  attendeeTypes(eventId: number): Promise<R.AttendeeTypes | undefined>;
  bookableSessions(eventId: number): Promise<R.BookableSessions | undefined>;
  attendeeStatuses(eventId: number): Promise<R.AttendeeStatusRow[] | undefined>;
  customFields(eventId: number): Promise<R.CustomFields | undefined>;
  roadshowTickets(roadshowId: number): Promise<R.RoadshowTickets | undefined>;

  // Contacts
  contactByEmail(email: string): Promise<R.ContactRecord | undefined>;
  contactHistory(contactId: number): Promise<R.ContactHistoryRow[]>;
  contactEvents(
    contactId: number,
    includeArchived: boolean,
    testBookings: boolean,
  ): Promise<R.ContactEventRow[] | undefined>;
  tokenTransaction<T>(fn: (tx: TokenTransaction) => Promise<T>): Promise<T>;

  // The service itself
  lookupKey(apiKey: string): Promise<{ secret: string; name: string } | undefined>;
  /** Replay protection seen by every worker, process and restart on this database. */
  readonly replay: ReplayStore;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

/**
 * A parsed EventProfileSearch query (gap search-query-syntax): every word must match Title,
 * Description, Code or Location; every filter must hold. Values are data, never SQL.
 */
export interface SearchFilter {
  readonly words: readonly string[];
  readonly code: readonly string[];
  readonly country: readonly string[];
  readonly type: readonly string[];
  readonly status: readonly string[];
  readonly series: readonly string[];
  /** Substrings of Location. */
  readonly location: readonly string[];
  /** Inclusive bounds on the start date, yyyy-MM-ddTHH:mm:ss. */
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly archived: readonly boolean[];
}
