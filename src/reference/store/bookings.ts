// Bookings: six set-based queries per page (never one per row), in one read transaction so that
// a page is one snapshot even while another process writes. SQLite returns each row set as one
// JSON text (see StatementCache.jsonRows); PostgreSQL returns rows, in the same order.
import { addressColumns, bool, columns, int, text, textOrNull } from './columns.js';
import {
  list,
  perDialect,
  row,
  rows,
  run,
  statement,
  value,
  values,
  type Program,
} from './program.js';
import type * as R from './records.js';

const BOOKING = columns<R.BookingRow>({
  id: int('b.id'),
  reference: text('b.reference'),
  status: text('bs.name'),
  created: text('b.created'),
  grossCents: int('b.gross_cents'),
  netCents: int('b.net_cents'),
  taxCents: int('b.tax_cents'),
  isTest: bool('b.is_test'),
});
const ATTENDEE = columns<R.AttendeeRow>({
  ...addressColumns('c.'),
  id: int('a.id'),
  bookingId: int('a.booking_id'),
  reference: text('a.reference'),
  status: text('s.name'),
  created: text('a.created'),
  attendeeType: text('at.name'),
  attendeeTypeId: int('a.attendee_type_id'),
  ticketType: text('tt.name'),
  ticketTypeId: int('a.ticket_type_id'),
  countryCode: text('c.country_code'),
  isLead: bool('a.is_lead'),
  attended: bool('a.attended'),
});
const DAY = columns<R.AttendeeDayRow>({ attendeeId: int('d.attendee_id'), day: text('d.day') });
const CUSTOM = columns<R.CustomValueRow>({
  attendeeId: int('v.attendee_id'),
  customFieldId: int('v.custom_field_id'),
  name: text('f.name'),
  value: text('v.value'),
});
const SIGNUP = columns<R.SignupRow>({
  attendeeId: int('g.attendee_id'),
  sessionId: int('g.session_id'),
  title: text('s.title'),
  isWaitingList: bool('g.is_waiting_list'),
});
const RESERVATION = columns<R.ReservationRow>({
  attendeeId: int('r.attendee_id'),
  id: int('r.id'),
  performanceId: int('r.performance_id'),
  quantity: int('r.quantity'),
});
const SUMMARY = columns<R.BookingSummaryRow>({
  id: int('b.id'),
  reference: text('b.reference'),
  secureKey: text('b.secure_key'),
  attendeeCount: int('(SELECT count(*) FROM attendee WHERE booking_id = b.id)'),
  leadReference: textOrNull(
    '(SELECT reference FROM attendee WHERE booking_id = b.id AND is_lead = 1)',
  ),
});

// SQLite: driven by the id list in its order (ascending BookingId) and joined with CROSS JOIN,
// which SQLite never reorders: each row set comes out in BookingId, then attendee id, then list
// order by walking indexes alone, with no sort (test/unit/reference/query-plans.test.ts holds
// every statement of a page to searches: no scan of a table, no temporary B-tree). PostgreSQL
// plans its own joins; its ORDER BY states the same order.
const IDS = 'json_each(?) j';
const OF_PAGE = `${IDS} CROSS JOIN attendee a ON a.booking_id = j.value`;
const PAGE = 'a.booking_id = ANY(?::bigint[])';
/** One row set of a page: SQLite's JSON form and PostgreSQL's rows of the same columns. */
const pageSet = (exprs: string, sqlite: string, postgres: string, order: string) =>
  perDialect({
    sqlite: `SELECT json_group_array(json_array(${exprs})) FROM ${sqlite}`,
    postgres: `SELECT ${exprs} FROM ${postgres} ORDER BY ${order}`,
    sqliteJson: true,
  });
const BOOKINGS_SQL = pageSet(
  BOOKING.exprs,
  `${IDS} CROSS JOIN booking b ON b.id = j.value CROSS JOIN booking_status bs ON bs.id = b.status_id`,
  'booking b JOIN booking_status bs ON bs.id = b.status_id WHERE b.id = ANY(?::bigint[])',
  'b.id',
);
const ATTENDEES_SQL = pageSet(
  ATTENDEE.exprs,
  `${OF_PAGE} CROSS JOIN contact c ON c.id = a.contact_id CROSS JOIN attendee_status s ON s.id = a.status_id
  CROSS JOIN attendee_type at ON at.id = a.attendee_type_id CROSS JOIN ticket_type tt ON tt.id = a.ticket_type_id`,
  `attendee a JOIN contact c ON c.id = a.contact_id JOIN attendee_status s ON s.id = a.status_id
  JOIN attendee_type at ON at.id = a.attendee_type_id JOIN ticket_type tt ON tt.id = a.ticket_type_id WHERE ${PAGE}`,
  'a.booking_id, a.id',
);
const DAYS_SQL = pageSet(
  DAY.exprs,
  `${OF_PAGE} CROSS JOIN attendee_day d ON d.attendee_id = a.id`,
  `attendee a JOIN attendee_day d ON d.attendee_id = a.id WHERE ${PAGE}`,
  'a.booking_id, a.id, d.day',
);
const CUSTOM_SQL = pageSet(
  CUSTOM.exprs,
  `${OF_PAGE} CROSS JOIN attendee_custom_value v ON v.attendee_id = a.id CROSS JOIN custom_field f ON f.id = v.custom_field_id`,
  `attendee a JOIN attendee_custom_value v ON v.attendee_id = a.id JOIN custom_field f ON f.id = v.custom_field_id WHERE ${PAGE}`,
  'a.booking_id, a.id, v.custom_field_id',
);
const SIGNUPS_SQL = pageSet(
  SIGNUP.exprs,
  `${OF_PAGE} CROSS JOIN session_signup g ON g.attendee_id = a.id CROSS JOIN bookable_session s ON s.id = g.session_id`,
  `attendee a JOIN session_signup g ON g.attendee_id = a.id JOIN bookable_session s ON s.id = g.session_id WHERE ${PAGE}`,
  'a.booking_id, a.id, g.session_id',
);
const RESERVATIONS_SQL = pageSet(
  RESERVATION.exprs,
  `${OF_PAGE} CROSS JOIN reservation r ON r.attendee_id = a.id`,
  `attendee a JOIN reservation r ON r.attendee_id = a.id WHERE ${PAGE}`,
  'a.booking_id, a.id, r.id',
);
/** A page by BookingId through the (event_id, id) index: no scan of other events, no sort. */
export const PAGE_IDS_SQL = statement(
  'SELECT id FROM booking WHERE event_id = ? ORDER BY id LIMIT ? OFFSET ?',
);
export const BOOKING_SET_SQL = [
  BOOKINGS_SQL,
  ATTENDEES_SQL,
  DAYS_SQL,
  CUSTOM_SQL,
  SIGNUPS_SQL,
  RESERVATIONS_SQL,
];
const SUMMARY_SQL = statement(`SELECT ${SUMMARY.exprs} FROM booking b WHERE b.id = ?`);
const EVENT_EXISTS = statement('SELECT 1 FROM event WHERE id = ?');

const EMPTY: R.BookingSet = {
  bookings: [],
  attendees: [],
  days: [],
  customValues: [],
  signups: [],
  reservations: [],
};

/** Call inside a read transaction. */
export function* readBookings(ids: readonly number[]): Program<R.BookingSet> {
  if (ids.length === 0) return EMPTY;
  // Ascending and distinct: the order every row set comes out in.
  const page = list([...new Set(ids)].sort((x, y) => x - y));
  const bookings = yield* rows(BOOKING, BOOKINGS_SQL, page);
  if (bookings.length === 0) return EMPTY;
  return {
    bookings,
    attendees: yield* rows(ATTENDEE, ATTENDEES_SQL, page),
    days: yield* rows(DAY, DAYS_SQL, page),
    customValues: yield* rows(CUSTOM, CUSTOM_SQL, page),
    signups: yield* rows(SIGNUP, SIGNUPS_SQL, page),
    reservations: yield* rows(RESERVATION, RESERVATIONS_SQL, page),
  };
}

/** Call inside a read transaction: undefined when there is no such booking. */
export function* readBooking(id: number): Program<R.BookingSet | undefined> {
  const set = yield* readBookings([id]);
  return set.bookings.length === 0 ? undefined : set;
}

/** Call inside a read transaction. */
export function* readBookingPage(
  eventId: number,
  skip: number,
  size: number,
): Program<R.BookingSet | undefined> {
  if ((yield* value(EVENT_EXISTS, eventId)) === undefined) return undefined;
  return yield* readBookings(yield* values<number>(PAGE_IDS_SQL, eventId, size, skip));
}

export const readBookingSummary = (bookingId: number) => row(SUMMARY, SUMMARY_SQL, bookingId);

const CANCELLED_STATUS_OF_EVENT = statement(
  'SELECT id FROM attendee_status WHERE event_id = ? AND is_default_cancelled = 1',
);
const CANCELLED_BOOKING_STATUS = statement(
  "SELECT id FROM booking_status WHERE status_type = 'Cancelled' ORDER BY id LIMIT 1",
);

interface Target {
  id: number;
  eventId: number;
}
const ATTENDEE_TARGET = columns<Target>({ id: int('a.id'), eventId: int('b.event_id') });
const BOOKING_TARGET = columns<Target>({ id: int('id'), eventId: int('event_id') });
const ATTENDEE_BY_REFERENCE = statement(
  `SELECT ${ATTENDEE_TARGET.exprs} FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.reference = ?`,
);
const BOOKING_BY_REFERENCE = statement(
  `SELECT ${BOOKING_TARGET.exprs} FROM booking WHERE reference = ?`,
);
const SET_ATTENDEE_STATUS = statement('UPDATE attendee SET status_id = ? WHERE id = ?');
const SET_BOOKING_STATUS = statement(
  'UPDATE booking SET status_id = ?, last_updated = ? WHERE id = ?',
);
const SET_ATTENDEES_STATUS = statement('UPDATE attendee SET status_id = ? WHERE booking_id = ?');

/** Call inside a write transaction. */
export function* writeCancelAttendee(reference: string): Program<boolean> {
  const a = yield* row(ATTENDEE_TARGET, ATTENDEE_BY_REFERENCE, reference);
  if (!a) return false;
  const status = yield* value<number>(CANCELLED_STATUS_OF_EVENT, a.eventId);
  yield* run(SET_ATTENDEE_STATUS, status ?? null, a.id);
  return true;
}

/** Call inside a write transaction. */
export function* writeCancelBooking(reference: string, at: string): Program<boolean> {
  const b = yield* row(BOOKING_TARGET, BOOKING_BY_REFERENCE, reference);
  if (!b) return false;
  const cancelled = yield* value<number>(CANCELLED_BOOKING_STATUS);
  yield* run(SET_BOOKING_STATUS, cancelled ?? null, at, b.id);
  const status = yield* value<number>(CANCELLED_STATUS_OF_EVENT, b.eventId);
  yield* run(SET_ATTENDEES_STATUS, status ?? null, b.id);
  return true;
}
