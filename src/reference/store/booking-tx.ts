// SubmitSimpleBookingWithBookingStatus and VerifyTokenForContact: what the handlers check, read
// inside their write transaction, and the rows they write. On SQLite the transaction holds the
// database's one write lock throughout; on PostgreSQL (READ COMMITTED) it locks the rows a
// concurrent booking or verification would also decide on, the event and ticket type (or the
// token), before reading anything that decides, so that two nodes can never both take the last
// place or both use a single-use token.
import { bool, columns, int, intOrNull, text, textOrNull } from './columns.js';
import { perDialect, row, run, statement, value, type Program } from './program.js';
import type * as R from './records.js';
import type { BookingTransaction, TokenTransaction } from './store.js';

const EVENT = columns<NonNullable<R.BookingContext['event']>>({
  id: int('id'),
  bookingPrefix: text('booking_prefix'),
  capacity: int('capacity'),
  hasCapacityLimits: bool('has_capacity_limits'),
  title: text('title'),
});
const TICKET = columns<NonNullable<R.BookingContext['ticket']>>({
  capacity: intOrNull('capacity'),
  grossPriceE5: int('gross_price_e5'),
  taxRateE5: int('tax_rate_e5'),
});
const CONTACT = columns<NonNullable<R.BookingContext['contact']>>({
  email: text('email'),
  forename: text('forename'),
  surname: text('surname'),
});
// Event first, then ticket type: every booking takes its locks in this order, so two bookings
// never wait for each other in a circle.
const EVENT_SQL = statement(
  (d) => `SELECT ${EVENT.exprs} FROM event WHERE id = ?${d.forUpdate('event')}`,
);
const TICKET_SQL = statement(
  (d) => `SELECT ${TICKET.exprs} FROM ticket_type WHERE id = ?${d.forUpdate('ticket_type')}`,
);
const ATTENDEE_TYPE_EVENT = statement('SELECT event_id FROM attendee_type WHERE id = ?');
const TICKET_ALLOWS = statement(
  'SELECT 1 FROM ticket_type_attendee_type WHERE ticket_type_id = ? AND attendee_type_id = ?',
);
const BOOKING_STATUS_EXISTS = statement('SELECT 1 FROM booking_status WHERE id = ?');
const CONTACT_SQL = statement(`SELECT ${CONTACT.exprs} FROM contact WHERE id = ?`);
// Attendees not cancelled, from the counts of migration 2: exact inside this transaction, and a
// few rows to read instead of every attendee of the event.
const ACTIVE_IN_EVENT = statement(
  "SELECT coalesce(sum(n), 0) FROM event_attendee_count WHERE event_id = ? AND status_type <> 'Cancelled'",
);
const ACTIVE_WITH_TICKET = statement(
  "SELECT coalesce(sum(n), 0) FROM ticket_attendee_count WHERE ticket_type_id = ? AND status_type <> 'Cancelled'",
);
const ATTENDEE_STATUS = statement(
  'SELECT id FROM attendee_status WHERE event_id = ? ORDER BY (linked_booking_status_id = ?) DESC, is_default DESC, id LIMIT 1',
);

function* context(p: Parameters<BookingTransaction['context']>[0]): Program<R.BookingContext> {
  const event = yield* row(EVENT, EVENT_SQL, p.eventId);
  const attendeeTypeEventId = yield* value<number>(ATTENDEE_TYPE_EVENT, p.attendeeTypeId);
  const ticket = yield* row(TICKET, TICKET_SQL, p.ticketTypeId);
  return {
    event,
    attendeeTypeEventId,
    ticket,
    ticketAllowsAttendeeType:
      (yield* value(TICKET_ALLOWS, p.ticketTypeId, p.attendeeTypeId)) !== undefined,
    bookingStatusExists: (yield* value(BOOKING_STATUS_EXISTS, p.bookingStatusId)) !== undefined,
    contact: yield* row(CONTACT, CONTACT_SQL, p.contactId),
    activeInEvent: (yield* value<number>(ACTIVE_IN_EVENT, p.eventId)) ?? 0,
    activeWithTicket: (yield* value<number>(ACTIVE_WITH_TICKET, p.ticketTypeId)) ?? 0,
    attendeeStatusId: yield* value<number>(ATTENDEE_STATUS, p.eventId, p.bookingStatusId),
  };
}

// SQLite: the next rowid under the write lock. PostgreSQL: the table's identity sequence, as
// bookings of other events run at the same time (a booking refused after this leaves a gap).
const nextId = (table: string) =>
  perDialect({
    sqlite: `SELECT coalesce(max(id), 0) + 1 FROM ${table}`,
    postgres: `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))`,
  });
const NEXT_BOOKING = nextId('booking');
const NEXT_ATTENDEE = nextId('attendee');

function* nextIds(): Program<{ bookingId: number; attendeeId: number }> {
  return {
    bookingId: (yield* value<number>(NEXT_BOOKING))!,
    attendeeId: (yield* value<number>(NEXT_ATTENDEE))!,
  };
}

const INSERT_BOOKING = statement(
  'INSERT INTO booking (id, event_id, reference, status_id, contact_id, created, gross_cents, net_cents, tax_cents, is_test, secure_key, last_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)',
);
const INSERT_ATTENDEE = statement(
  'INSERT INTO attendee (id, booking_id, reference, contact_id, status_id, created, attendee_type_id, ticket_type_id, is_lead, attended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 0)',
);
const INSERT_MAIL = statement(
  "INSERT INTO outbox (created, kind, recipient, subject, body, booking_id) VALUES (?, 'BookingUpdated', ?, ?, ?, ?)",
);

function* insert(b: R.NewBooking): Program<void> {
  yield* run(
    INSERT_BOOKING,
    b.id,
    b.eventId,
    b.reference,
    b.statusId,
    b.contactId,
    b.created,
    b.grossCents,
    b.netCents,
    b.taxCents,
    b.secureKey,
    b.created,
  );
  const a = b.attendee;
  yield* run(
    INSERT_ATTENDEE,
    a.id,
    b.id,
    a.reference,
    b.contactId,
    a.statusId,
    b.created,
    a.attendeeTypeId,
    a.ticketTypeId,
  );
  yield* run(INSERT_MAIL, b.created, b.mail.recipient, b.mail.subject, b.mail.body, b.id);
}

/** Runs a program inside the transaction the callback runs in. */
export type InTransaction = <T>(program: Program<T>) => Promise<T>;

export const bookingTransaction = (inTx: InTransaction): BookingTransaction => ({
  context: (p) => inTx(context(p)),
  nextIds: () => inTx(nextIds()),
  insert: (b) => inTx(insert(b)),
});

const TOKEN = columns<R.TokenRow>({
  id: int('t.id'),
  contactId: int('t.contact_id'),
  singleUse: bool('t.single_use'),
  expiresAt: textOrNull('t.expires_at'),
  usedAt: textOrNull('t.used_at'),
  email: text('c.email'),
});
const TOKEN_SQL = statement(
  (d) =>
    `SELECT ${TOKEN.exprs} FROM contact_token t JOIN contact c ON c.id = t.contact_id WHERE t.value = ? AND t.token_type = ?${d.forUpdate('t')}`,
);
const MARK_USED = statement('UPDATE contact_token SET used_at = ? WHERE id = ?');

export const tokenTransaction = (inTx: InTransaction): TokenTransaction => ({
  token: (tokenType, tokenValue) => inTx(row(TOKEN, TOKEN_SQL, tokenValue, tokenType)),
  markUsed: async (id, at) => void (await inTx(run(MARK_USED, at, id))),
});
