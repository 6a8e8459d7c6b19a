// SubmitSimpleBookingWithBookingStatus: every reference checked, capacity enforced inside one
// BEGIN IMMEDIATE transaction (so concurrent requests, even from several processes, can never
// overbook), the BookingUpdated e-mail written to the outbox in the same transaction.
import { ServiceFault } from '@evgen/runtime';
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { Db } from '../db/open.js';
import { invalid, money, notFound } from './common.js';

type SubmitHandler = Pick<ServiceHandlers, 'submitSimpleBookingWithBookingStatus'>;

const conflict = (message: string) => new ServiceFault('Conflict', message);
// Attendees not cancelled, from the counts of migration 2: exact inside this transaction, and a
// few rows to read instead of every attendee of the event.
const ACTIVE_IN_EVENT =
  "SELECT coalesce(sum(n), 0) FROM event_attendee_count WHERE event_id = ? AND status_type <> 'Cancelled'";
const ACTIVE_WITH_TICKET =
  "SELECT coalesce(sum(n), 0) FROM ticket_attendee_count WHERE ticket_type_id = ? AND status_type <> 'Cancelled'";

export function submitHandler(db: Db): SubmitHandler {
  const book = db.transaction(
    (p: {
      eventId: number;
      attendeeTypeId: number;
      ticketTypeId: number;
      bookingStatusId: number;
      contactId: number;
    }) => {
      const event = db
        .prepare(
          'SELECT id, booking_prefix, capacity, has_capacity_limits, title FROM event WHERE id = ?',
        )
        .get(p.eventId) as
        | {
            id: number;
            booking_prefix: string;
            capacity: number;
            has_capacity_limits: number;
            title: string;
          }
        | undefined;
      if (!event) throw notFound(`event ${p.eventId}`);
      const attendeeType = db
        .prepare('SELECT event_id FROM attendee_type WHERE id = ?')
        .get(p.attendeeTypeId) as { event_id: number } | undefined;
      if (!attendeeType) throw notFound(`attendee type ${p.attendeeTypeId}`);
      if (attendeeType.event_id !== p.eventId)
        throw invalid(`attendee type ${p.attendeeTypeId} does not belong to event ${p.eventId}`);
      const ticket = db
        .prepare('SELECT capacity, gross_price_e5, tax_rate_e5 FROM ticket_type WHERE id = ?')
        .get(p.ticketTypeId) as
        | { capacity: number | null; gross_price_e5: number; tax_rate_e5: number }
        | undefined;
      if (!ticket) throw notFound(`ticket type ${p.ticketTypeId}`);
      if (
        !db
          .prepare(
            'SELECT 1 FROM ticket_type_attendee_type WHERE ticket_type_id = ? AND attendee_type_id = ?',
          )
          .get(p.ticketTypeId, p.attendeeTypeId)
      ) {
        throw invalid(
          `ticket type ${p.ticketTypeId} does not belong to attendee type ${p.attendeeTypeId}`,
        );
      }
      if (!db.prepare('SELECT 1 FROM booking_status WHERE id = ?').get(p.bookingStatusId))
        throw notFound(`booking status ${p.bookingStatusId}`);
      const contact = db
        .prepare('SELECT email, forename, surname FROM contact WHERE id = ?')
        .get(p.contactId) as { email: string; forename: string; surname: string } | undefined;
      if (!contact) throw notFound(`contact ${p.contactId}`);

      const active = (sql: string, arg: number) => db.prepare(sql).pluck().get(arg) as number;
      if (event.has_capacity_limits && active(ACTIVE_IN_EVENT, p.eventId) >= event.capacity)
        throw conflict(`event ${p.eventId} is full (capacity ${event.capacity})`);
      if (ticket.capacity !== null && active(ACTIVE_WITH_TICKET, p.ticketTypeId) >= ticket.capacity)
        throw conflict(`ticket type ${p.ticketTypeId} is full (capacity ${ticket.capacity})`);

      // Costs in cents, exactly: a price or tax that needs more than 2 places cannot be charged.
      if (ticket.gross_price_e5 % 1000 !== 0)
        throw conflict(`ticket type ${p.ticketTypeId} has a price with more than 2 decimal places`);
      const gross = ticket.gross_price_e5 / 1000;
      const netExact = (gross * 100_000) / (100_000 + ticket.tax_rate_e5);
      const net = Number.isInteger(netExact) ? netExact : gross;
      const now = new Date().toISOString().slice(0, 19);
      const id =
        ((db.prepare('SELECT max(id) FROM booking').pluck().get() as number | null) ?? 0) + 1;
      const reference = `${event.booking_prefix}-${String(id).padStart(6, '0')}`;
      db.prepare(
        'INSERT INTO booking (id, event_id, reference, status_id, contact_id, created, gross_cents, net_cents, tax_cents, is_test, secure_key, last_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)',
      ).run(
        id,
        p.eventId,
        reference,
        p.bookingStatusId,
        p.contactId,
        now,
        gross,
        net,
        gross - net,
        crypto.randomUUID().slice(0, 10),
        now,
      );
      const status = db
        .prepare(
          'SELECT id FROM attendee_status WHERE event_id = ? ORDER BY (linked_booking_status_id = ?) DESC, is_default DESC, id LIMIT 1',
        )
        .pluck()
        .get(p.eventId, p.bookingStatusId) as number;
      const attendeeId =
        ((db.prepare('SELECT max(id) FROM attendee').pluck().get() as number | null) ?? 0) + 1;
      db.prepare(
        'INSERT INTO attendee (id, booking_id, reference, contact_id, status_id, created, attendee_type_id, ticket_type_id, is_lead, attended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 0)',
      ).run(
        attendeeId,
        id,
        `${event.booking_prefix}-A${String(attendeeId).padStart(7, '0')}`,
        p.contactId,
        status,
        now,
        p.attendeeTypeId,
        p.ticketTypeId,
      );
      db.prepare(
        "INSERT INTO outbox (created, kind, recipient, subject, body, booking_id) VALUES (?, 'BookingUpdated', ?, ?, ?, ?)",
      ).run(
        now,
        contact.email,
        `Your booking ${reference}`,
        `Dear ${contact.forename} ${contact.surname}, your booking ${reference} for ${event.title} is recorded (total ${money(gross)}).`,
        id,
      );
      return {
        BookingId: id,
        AttendeeId: attendeeId,
        AttendeeTypeId: p.attendeeTypeId,
        TicketTypeId: p.ticketTypeId,
        ContactId: p.contactId,
        EventId: p.eventId,
        BookingReference: reference,
      };
    },
  );
  return { submitSimpleBookingWithBookingStatus: (params) => book.immediate(params) };
}
