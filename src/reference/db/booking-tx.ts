// The SQLite side of SubmitSimpleBookingWithBookingStatus and VerifyTokenForContact: what the
// handlers check, read inside their BEGIN IMMEDIATE transaction, and the rows they write.
import { bool, columns, int, intOrNull, text, textOrNull } from '../store/columns.js';
import type * as R from '../store/records.js';
import type { BookingTransaction, TokenTransaction } from '../store/store.js';
import type { StatementCache } from './statements.js';

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
// Attendees not cancelled, from the counts of migration 2: exact inside this transaction, and a
// few rows to read instead of every attendee of the event.
const ACTIVE_IN_EVENT =
  "SELECT coalesce(sum(n), 0) FROM event_attendee_count WHERE event_id = ? AND status_type <> 'Cancelled'";
const ACTIVE_WITH_TICKET =
  "SELECT coalesce(sum(n), 0) FROM ticket_attendee_count WHERE ticket_type_id = ? AND status_type <> 'Cancelled'";

export function sqliteBookingTransaction(sql: StatementCache): BookingTransaction {
  return {
    context(p) {
      return Promise.resolve({
        event: sql.row(EVENT, `SELECT ${EVENT.exprs} FROM event WHERE id = ?`, p.eventId),
        attendeeTypeEventId: sql.value<number>(
          'SELECT event_id FROM attendee_type WHERE id = ?',
          p.attendeeTypeId,
        ),
        ticket: sql.row(
          TICKET,
          `SELECT ${TICKET.exprs} FROM ticket_type WHERE id = ?`,
          p.ticketTypeId,
        ),
        ticketAllowsAttendeeType:
          sql.value(
            'SELECT 1 FROM ticket_type_attendee_type WHERE ticket_type_id = ? AND attendee_type_id = ?',
            p.ticketTypeId,
            p.attendeeTypeId,
          ) !== undefined,
        bookingStatusExists:
          sql.value('SELECT 1 FROM booking_status WHERE id = ?', p.bookingStatusId) !== undefined,
        contact: sql.row(CONTACT, `SELECT ${CONTACT.exprs} FROM contact WHERE id = ?`, p.contactId),
        activeInEvent: sql.value<number>(ACTIVE_IN_EVENT, p.eventId) ?? 0,
        activeWithTicket: sql.value<number>(ACTIVE_WITH_TICKET, p.ticketTypeId) ?? 0,
        attendeeStatusId: sql.value<number>(
          'SELECT id FROM attendee_status WHERE event_id = ? ORDER BY (linked_booking_status_id = ?) DESC, is_default DESC, id LIMIT 1',
          p.eventId,
          p.bookingStatusId,
        ),
      });
    },
    nextIds() {
      const next = (table: string) =>
        (sql.value<number | null>(`SELECT max(id) FROM ${table}`) ?? 0) + 1;
      return Promise.resolve({ bookingId: next('booking'), attendeeId: next('attendee') });
    },
    insert(b) {
      sql
        .cached(
          'INSERT INTO booking (id, event_id, reference, status_id, contact_id, created, gross_cents, net_cents, tax_cents, is_test, secure_key, last_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)',
        )
        .run(
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
      sql
        .cached(
          'INSERT INTO attendee (id, booking_id, reference, contact_id, status_id, created, attendee_type_id, ticket_type_id, is_lead, attended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 0)',
        )
        .run(
          a.id,
          b.id,
          a.reference,
          b.contactId,
          a.statusId,
          b.created,
          a.attendeeTypeId,
          a.ticketTypeId,
        );
      sql
        .cached(
          "INSERT INTO outbox (created, kind, recipient, subject, body, booking_id) VALUES (?, 'BookingUpdated', ?, ?, ?, ?)",
        )
        .run(b.created, b.mail.recipient, b.mail.subject, b.mail.body, b.id);
      return Promise.resolve();
    },
  };
}

const TOKEN = columns<R.TokenRow>({
  id: int('t.id'),
  contactId: int('t.contact_id'),
  singleUse: bool('t.single_use'),
  expiresAt: textOrNull('t.expires_at'),
  usedAt: textOrNull('t.used_at'),
  email: text('c.email'),
});

export function sqliteTokenTransaction(sql: StatementCache): TokenTransaction {
  return {
    token(tokenType, value) {
      return Promise.resolve(
        sql.row(
          TOKEN,
          `SELECT ${TOKEN.exprs} FROM contact_token t JOIN contact c ON c.id = t.contact_id WHERE t.value = ? AND t.token_type = ?`,
          value,
          tokenType,
        ),
      );
    },
    markUsed(id, at) {
      sql.cached('UPDATE contact_token SET used_at = ? WHERE id = ?').run(at, id);
      return Promise.resolve();
    },
  };
}
