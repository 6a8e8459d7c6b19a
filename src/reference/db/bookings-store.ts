// Bookings in SQLite: six set-based queries per page (never one per row), each returning its rows
// as one JSON text, in one read transaction so that a page is one snapshot even while another
// process writes.
import { addressColumns, bool, columns, int, text, textOrNull } from '../store/columns.js';
import type * as R from '../store/records.js';
import { idList, type StatementCache } from './statements.js';

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

// Driven by the id list in its order (ascending BookingId) and joined with CROSS JOIN, which
// SQLite never reorders: each row set comes out in BookingId, then attendee id, then list order
// by walking indexes alone, with no sort (test/unit/reference/query-plans.test.ts holds every
// statement of a page to searches: no scan of a table, no temporary B-tree).
const IDS = 'json_each(?) j';
const BOOKINGS_SQL = `SELECT json_group_array(json_array(${BOOKING.exprs}))
  FROM ${IDS} CROSS JOIN booking b ON b.id = j.value CROSS JOIN booking_status bs ON bs.id = b.status_id`;
const OF_PAGE = `${IDS} CROSS JOIN attendee a ON a.booking_id = j.value`;
const ATTENDEES_SQL = `SELECT json_group_array(json_array(${ATTENDEE.exprs}))
  FROM ${OF_PAGE} CROSS JOIN contact c ON c.id = a.contact_id CROSS JOIN attendee_status s ON s.id = a.status_id
  CROSS JOIN attendee_type at ON at.id = a.attendee_type_id CROSS JOIN ticket_type tt ON tt.id = a.ticket_type_id`;
const DAYS_SQL = `SELECT json_group_array(json_array(${DAY.exprs}))
  FROM ${OF_PAGE} CROSS JOIN attendee_day d ON d.attendee_id = a.id`;
const CUSTOM_SQL = `SELECT json_group_array(json_array(${CUSTOM.exprs}))
  FROM ${OF_PAGE} CROSS JOIN attendee_custom_value v ON v.attendee_id = a.id CROSS JOIN custom_field f ON f.id = v.custom_field_id`;
const SIGNUPS_SQL = `SELECT json_group_array(json_array(${SIGNUP.exprs}))
  FROM ${OF_PAGE} CROSS JOIN session_signup g ON g.attendee_id = a.id CROSS JOIN bookable_session s ON s.id = g.session_id`;
const RESERVATIONS_SQL = `SELECT json_group_array(json_array(${RESERVATION.exprs}))
  FROM ${OF_PAGE} CROSS JOIN reservation r ON r.attendee_id = a.id`;
/** A page by BookingId through the (event_id, id) index: no scan of other events, no sort. */
export const PAGE_IDS_SQL =
  'SELECT id FROM booking WHERE event_id = ? ORDER BY id LIMIT ? OFFSET ?';
export const BOOKING_SET_SQL = [
  BOOKINGS_SQL,
  ATTENDEES_SQL,
  DAYS_SQL,
  CUSTOM_SQL,
  SIGNUPS_SQL,
  RESERVATIONS_SQL,
];
const SUMMARY_SQL = `SELECT ${SUMMARY.exprs} FROM booking b WHERE b.id = ?`;
const EVENT_EXISTS = 'SELECT 1 FROM event WHERE id = ?';

const EMPTY: R.BookingSet = {
  bookings: [],
  attendees: [],
  days: [],
  customValues: [],
  signups: [],
  reservations: [],
};

/** Call inside a read transaction. */
export function readBookings(sql: StatementCache, ids: readonly number[]): R.BookingSet {
  if (ids.length === 0) return EMPTY;
  // Ascending and distinct: the order every row set comes out in.
  const list = idList([...new Set(ids)].sort((x, y) => x - y));
  const bookings = sql.jsonRows(BOOKING, BOOKINGS_SQL, list);
  if (bookings.length === 0) return EMPTY;
  return {
    bookings,
    attendees: sql.jsonRows(ATTENDEE, ATTENDEES_SQL, list),
    days: sql.jsonRows(DAY, DAYS_SQL, list),
    customValues: sql.jsonRows(CUSTOM, CUSTOM_SQL, list),
    signups: sql.jsonRows(SIGNUP, SIGNUPS_SQL, list),
    reservations: sql.jsonRows(RESERVATION, RESERVATIONS_SQL, list),
  };
}

/** Call inside a read transaction. */
export function readBookingPage(
  sql: StatementCache,
  eventId: number,
  skip: number,
  size: number,
): R.BookingSet | undefined {
  if (!sql.value(EVENT_EXISTS, eventId)) return undefined;
  return readBookings(sql, sql.values<number>(PAGE_IDS_SQL, eventId, size, skip));
}

export const readBookingSummary = (sql: StatementCache, bookingId: number) =>
  sql.row(SUMMARY, SUMMARY_SQL, bookingId);

const CANCELLED_STATUS_OF_EVENT =
  'SELECT id FROM attendee_status WHERE event_id = ? AND is_default_cancelled = 1';

interface Target {
  id: number;
  eventId: number;
}
const ATTENDEE_TARGET = columns<Target>({ id: int('a.id'), eventId: int('b.event_id') });
const BOOKING_TARGET = columns<Target>({ id: int('id'), eventId: int('event_id') });

/** Call inside a write transaction. */
export function writeCancelAttendee(sql: StatementCache, reference: string): boolean {
  const a = sql.row(
    ATTENDEE_TARGET,
    `SELECT ${ATTENDEE_TARGET.exprs} FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.reference = ?`,
    reference,
  );
  if (!a) return false;
  sql
    .cached('UPDATE attendee SET status_id = ? WHERE id = ?')
    .run(sql.value(CANCELLED_STATUS_OF_EVENT, a.eventId), a.id);
  return true;
}

/** Call inside a write transaction. */
export function writeCancelBooking(sql: StatementCache, reference: string, at: string): boolean {
  const b = sql.row(
    BOOKING_TARGET,
    `SELECT ${BOOKING_TARGET.exprs} FROM booking WHERE reference = ?`,
    reference,
  );
  if (!b) return false;
  const cancelled = sql.value(
    "SELECT id FROM booking_status WHERE status_type = 'Cancelled' ORDER BY id LIMIT 1",
  );
  sql
    .cached('UPDATE booking SET status_id = ?, last_updated = ? WHERE id = ?')
    .run(cancelled, at, b.id);
  sql
    .cached('UPDATE attendee SET status_id = ? WHERE booking_id = ?')
    .run(sql.value(CANCELLED_STATUS_OF_EVENT, b.eventId), b.id);
  return true;
}
