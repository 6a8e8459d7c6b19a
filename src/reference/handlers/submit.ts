// SubmitSimpleBookingWithBookingStatus in three steps inside one write transaction of the store
// (so concurrent requests, even from several processes, can never overbook): validate every
// reference, reserve a place within the event's and the ticket type's capacity, insert the
// booking with its lead attendee and its BookingUpdated e-mail.
import { fault } from '../faults.js';
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { SubmitSimpleBookingWithBookingStatusParams } from '@evgen/event-management/types';
import { E5_PER_CENT, computeCosts, type Costs } from '../costs.js';
import type { BookingContext, NewBooking } from '../store/records.js';
import type { ReferenceStore } from '../store/store.js';
import { invalid, money, notFound, nowLocal } from './common.js';

type SubmitHandler = Pick<ServiceHandlers, 'submitSimpleBookingWithBookingStatus'>;
type Params = SubmitSimpleBookingWithBookingStatusParams;
type Checked = BookingContext & {
  event: NonNullable<BookingContext['event']>;
  ticket: NonNullable<BookingContext['ticket']>;
  contact: NonNullable<BookingContext['contact']>;
  attendeeStatusId: number;
};

const conflict = (message: string) => fault('Conflict', message);
/** Booking references: prefix-000042 and prefix-A0000042 (zero-padded, as the demo data). */
const BOOKING_NUMBER_DIGITS = 6;
const ATTENDEE_NUMBER_DIGITS = 7;
export const bookingReference = (prefix: string, id: number) =>
  `${prefix}-${String(id).padStart(BOOKING_NUMBER_DIGITS, '0')}`;
export const attendeeReference = (prefix: string, id: number) =>
  `${prefix}-A${String(id).padStart(ATTENDEE_NUMBER_DIGITS, '0')}`;
/** Characters of the booking's secure key (a random UUID's first group and a dash). */
const SECURE_KEY_LENGTH = 10;

/** Every reference exists and belongs together; throws the fault naming the first that does not. */
export function validate(c: BookingContext, p: Params): Checked {
  if (!c.event) throw notFound(`event ${p.eventId}`);
  if (c.attendeeTypeEventId === undefined) throw notFound(`attendee type ${p.attendeeTypeId}`);
  if (c.attendeeTypeEventId !== p.eventId)
    throw invalid(`attendee type ${p.attendeeTypeId} does not belong to event ${p.eventId}`);
  if (!c.ticket) throw notFound(`ticket type ${p.ticketTypeId}`);
  if (!c.ticketAllowsAttendeeType)
    throw invalid(
      `ticket type ${p.ticketTypeId} does not belong to attendee type ${p.attendeeTypeId}`,
    );
  if (!c.bookingStatusExists) throw notFound(`booking status ${p.bookingStatusId}`);
  if (!c.contact) throw notFound(`contact ${p.contactId}`);
  if (c.attendeeStatusId === undefined)
    throw conflict(`event ${p.eventId} has no attendee status to give a new attendee`);
  return {
    ...c,
    event: c.event,
    ticket: c.ticket,
    contact: c.contact,
    attendeeStatusId: c.attendeeStatusId,
  };
}

/** A place within both capacities, and a price that can be charged: the costs of that place. */
export function reserve(c: Checked, p: Params): Costs {
  if (c.event.hasCapacityLimits && c.activeInEvent >= c.event.capacity)
    throw conflict(`event ${p.eventId} is full (capacity ${c.event.capacity})`);
  if (c.ticket.capacity !== null && c.activeWithTicket >= c.ticket.capacity)
    throw conflict(`ticket type ${p.ticketTypeId} is full (capacity ${c.ticket.capacity})`);
  // Costs in cents, exactly: a price that needs more than 2 places cannot be charged.
  if (c.ticket.grossPriceE5 % E5_PER_CENT !== 0)
    throw conflict(`ticket type ${p.ticketTypeId} has a price with more than 2 decimal places`);
  if (c.ticket.grossPriceE5 < 0 || c.ticket.taxRateE5 < 0)
    throw conflict(`ticket type ${p.ticketTypeId} has a negative price or tax rate`);
  return computeCosts(c.ticket.grossPriceE5 / E5_PER_CENT, c.ticket.taxRateE5);
}

/** The rows to insert for a booking with these ids. */
export function newBooking(
  c: Checked,
  p: Params,
  costs: Costs,
  ids: { bookingId: number; attendeeId: number },
  now: string,
): NewBooking {
  const reference = bookingReference(c.event.bookingPrefix, ids.bookingId);
  return {
    id: ids.bookingId,
    eventId: p.eventId,
    reference,
    statusId: p.bookingStatusId,
    contactId: p.contactId,
    created: now,
    ...costs,
    secureKey: crypto.randomUUID().slice(0, SECURE_KEY_LENGTH),
    attendee: {
      id: ids.attendeeId,
      reference: attendeeReference(c.event.bookingPrefix, ids.attendeeId),
      statusId: c.attendeeStatusId,
      attendeeTypeId: p.attendeeTypeId,
      ticketTypeId: p.ticketTypeId,
    },
    mail: {
      recipient: c.contact.email,
      subject: `Your booking ${reference}`,
      body: `Dear ${c.contact.forename} ${c.contact.surname}, your booking ${reference} for ${c.event.title} is recorded (total ${money(costs.grossCents)}).`,
    },
  };
}

export function submitHandler(store: ReferenceStore): SubmitHandler {
  return {
    submitSimpleBookingWithBookingStatus: (p) =>
      store.bookingTransaction(async (tx) => {
        const checked = validate(await tx.context(p), p);
        const costs = reserve(checked, p);
        const booking = newBooking(checked, p, costs, await tx.nextIds(), nowLocal());
        await tx.insert(booking);
        return {
          BookingId: booking.id,
          AttendeeId: booking.attendee.id,
          AttendeeTypeId: p.attendeeTypeId,
          TicketTypeId: p.ticketTypeId,
          ContactId: p.contactId,
          EventId: p.eventId,
          BookingReference: booking.reference,
        };
      }),
  };
}
