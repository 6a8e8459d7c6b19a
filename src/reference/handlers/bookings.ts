// Booking operations. Decisions (spec/gaps.yaml default-batch-size, cancel-booking-effect):
// - paging is by BookingId ascending; skip >= 0; GetBookingsBatch size is 1..1000;
//   GetBookings and GetExtBookings return a page of at most 1000 records;
// - CancelAttendee sets the attendee to its event's default cancelled status; CancelBooking sets
//   the booking to the Cancelled status and every attendee to the default cancelled status; both
//   are idempotent and answer NotFound for an unknown reference.
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { Db } from '../db/open.js';
import { bookingReader, type BookingReader } from './bookings-read.js';
import { invalid, notFound, requireEvent } from './common.js';

export const DEFAULT_PAGE = 1000;
export const MAX_BATCH = 1000;

function checkPage(skip: number, size: number): void {
  if (skip < 0) throw invalid(`skip must be 0 or more, got ${skip}`);
  if (size < 1 || size > MAX_BATCH)
    throw invalid(`size must be between 1 and ${MAX_BATCH}, got ${size}`);
}

function page(db: Db, reader: BookingReader, eventId: number, skip: number, size: number) {
  checkPage(skip, size);
  requireEvent(db, eventId);
  return reader.page(eventId, skip, size, false);
}

type BookingHandlers = Pick<
  ServiceHandlers,
  | 'getBooking'
  | 'getBookingDetails'
  | 'getBookings'
  | 'getBookingsBatch'
  | 'getExtBookings'
  | 'cancelAttendee'
  | 'cancelBooking'
>;

export function bookingHandlers(db: Db): BookingHandlers {
  const cancelledStatusOf = db.prepare(
    'SELECT id FROM attendee_status WHERE event_id = ? AND is_default_cancelled = 1',
  );
  const cancelAttendees = db.prepare('UPDATE attendee SET status_id = ? WHERE booking_id = ?');
  const reader = bookingReader(db);
  return {
    getBooking({ bookingId }) {
      const [b] = reader.read([bookingId], false);
      if (!b) throw notFound(`booking ${bookingId}`);
      return b;
    },
    getBookingDetails({ bookingId }) {
      const row = db
        .prepare(
          `SELECT b.id, b.reference, b.secure_key, (SELECT count(*) FROM attendee WHERE booking_id = b.id) AS n,
                         (SELECT reference FROM attendee WHERE booking_id = b.id AND is_lead = 1) AS lead FROM booking b WHERE b.id = ?`,
        )
        .get(bookingId) as
        | { id: number; reference: string; secure_key: string; n: number; lead: string | null }
        | undefined;
      if (!row) throw notFound(`booking ${bookingId}`);
      return {
        BookingId: row.id,
        BookingReference: row.reference,
        AttendeeCount: row.n,
        InvoiceUrl: `https://events.example.com/invoices/${encodeURIComponent(row.reference)}`,
        SecureKey: row.secure_key,
        LeadAttendeeReference: row.lead ?? '',
      };
    },
    getBookings: ({ eventId, skip }) => page(db, reader, eventId, skip, DEFAULT_PAGE),
    getBookingsBatch: ({ eventId, skip, size }) => page(db, reader, eventId, skip, size),
    getExtBookings({ eventId, skip }) {
      checkPage(skip, DEFAULT_PAGE);
      requireEvent(db, eventId);
      return reader.page(eventId, skip, DEFAULT_PAGE, true);
    },
    cancelAttendee({ attendeeReference }) {
      const a = db
        .prepare(
          'SELECT a.id, b.event_id FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.reference = ?',
        )
        .get(attendeeReference) as { id: number; event_id: number } | undefined;
      if (!a) throw notFound(`attendee ${attendeeReference}`);
      db.prepare('UPDATE attendee SET status_id = ? WHERE id = ?').run(
        cancelledStatusOf.pluck().get(a.event_id),
        a.id,
      );
    },
    cancelBooking({ bookingReference }) {
      db.transaction(() => {
        const b = db
          .prepare('SELECT id, event_id FROM booking WHERE reference = ?')
          .get(bookingReference) as { id: number; event_id: number } | undefined;
        if (!b) throw notFound(`booking ${bookingReference}`);
        const cancelled = db
          .prepare(
            "SELECT id FROM booking_status WHERE status_type = 'Cancelled' ORDER BY id LIMIT 1",
          )
          .pluck()
          .get();
        db.prepare('UPDATE booking SET status_id = ?, last_updated = ? WHERE id = ?').run(
          cancelled,
          new Date().toISOString().slice(0, 19),
          b.id,
        );
        cancelAttendees.run(cancelledStatusOf.pluck().get(b.event_id), b.id);
      }).immediate();
    },
  };
}
