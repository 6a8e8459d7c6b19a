// Booking operations. Decisions (spec/gaps.yaml default-batch-size, cancel-booking-effect):
// - paging is by BookingId ascending; skip >= 0; GetBookingsBatch size is 1..1000;
//   GetBookings and GetExtBookings return a page of at most 1000 records;
// - CancelAttendee sets the attendee to its event's default cancelled status; CancelBooking sets
//   the booking to the Cancelled status and every attendee to the default cancelled status; both
//   are idempotent and answer NotFound for an unknown reference.
import { cutInput } from '@evgen/runtime/internal';
import type { ServiceHandlers } from '@evgen/event-management/server';
import type {
  AttendeeExtResponse,
  AttendeeResponse,
  BookingDetails,
  BookingExtResponse,
  BookingResponse,
} from '@evgen/event-management/types';
import { derivedOnce } from '../frozen.js';
import type { AttendeeRow, BookingSet, BookingSummaryRow } from '../store/records.js';
import type { ReferenceStore } from '../store/store.js';
import { found, invalid, listsBy, money, notFound, nowLocal } from './common.js';

export const DEFAULT_PAGE = 1000;
export const MAX_BATCH = 1000;

function checkPage(skip: number, size: number): void {
  if (skip < 0) throw invalid(`skip must be 0 or more, got ${skip}`);
  if (size < 1 || size > MAX_BATCH)
    throw invalid(`size must be between 1 and ${MAX_BATCH}, got ${size}`);
}

/** The attendee fields GetBookings and GetExtBookings share, with the attendee's lists. */
function attendeeMapper(set: BookingSet): (a: AttendeeRow) => AttendeeResponse {
  const days = listsBy(
    set.days,
    (d) => d.attendeeId,
    (d) => d.day,
  );
  const custom = listsBy(
    set.customValues,
    (v) => v.attendeeId,
    (v) => ({
      CustomFieldId: v.customFieldId,
      Name: v.name,
      Value: v.value,
    }),
  );
  const signups = listsBy(
    set.signups,
    (g) => g.attendeeId,
    (g) => ({
      BookableSessionId: g.sessionId,
      Title: g.title,
      IsWaitingList: g.isWaitingList,
    }),
  );
  const reservations = listsBy(
    set.reservations,
    (r) => r.attendeeId,
    (r) => ({
      ReservationId: r.id,
      ShowPerformanceID: r.performanceId,
      Quantity: r.quantity,
    }),
  );
  // Annotated, so the literal is checked field by field: a field the spec renames fails here.
  return (a): AttendeeResponse => ({
    AttendeeId: a.id,
    AttendeeReference: a.reference,
    AttendeeStatus: a.status,
    DateCreated: a.created,
    AttendeeType: a.attendeeType,
    AttendeeTypeId: a.attendeeTypeId,
    TicketType: a.ticketType,
    TicketTypeId: a.ticketTypeId,
    Title: a.title,
    Forename: a.forename,
    Surname: a.surname,
    Organisation: a.organisation,
    Occupation: a.occupation,
    PAName: a.paName,
    MarketingOptOut: a.marketingOptOut,
    Line1: a.line1,
    Line2: a.line2,
    Line3: a.line3,
    Town: a.town,
    County: a.county,
    Postcode: a.postcode,
    Country: a.country,
    Email: a.email,
    Telephone: a.telephone,
    Fax: a.fax,
    Mobile: a.mobile,
    Website: a.website,
    IsLeadAttendee: a.isLead,
    Attendance: days(a.id),
    CustomFieldValues: custom(a.id),
    BookableSessionSignups: signups(a.id),
    Reservations: reservations(a.id),
  });
}

/** A booking whose attendees are A: AttendeeResponse, or AttendeeExtResponse for GetExtBookings. */
type BookingOf<A> = Omit<BookingResponse, 'Attendees'> & { Attendees: A[] };

function bookingsWith<A>(set: BookingSet, attendee: (a: AttendeeRow) => A): BookingOf<A>[] {
  const attendees = listsBy(set.attendees, (a) => a.bookingId, attendee);
  return set.bookings.map((b) => ({
    BookingId: b.id,
    BookingReference: b.reference,
    BookingStatus: b.status,
    CreatedDate: b.created,
    GrossCost: money(b.grossCents),
    NetCost: money(b.netCents),
    Tax: money(b.taxCents),
    IsTest: b.isTest,
    Attendees: attendees(b.id),
  }));
}

export const bookingResponses = (set: BookingSet): BookingResponse[] =>
  bookingsWith(set, attendeeMapper(set));

export function bookingExtResponses(set: BookingSet): BookingExtResponse[] {
  const base = attendeeMapper(set);
  // Object.assign, not `{ ...base(a), ... }`: V8 copies a spread this large on a slow path.
  return bookingsWith(set, (a): AttendeeExtResponse => {
    // Typed, so a field the spec adds to or renames in AttendeeExtResponse fails here.
    const more: Omit<AttendeeExtResponse, keyof AttendeeResponse> = {
      CountryCode: a.countryCode,
      AttendedStatus: a.attended,
    };
    return Object.assign(base(a), more);
  });
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

// A kept record (the read cache's) answers with the same frozen value each time: its XML is made once.
const bookingOf = derivedOnce((set: BookingSet) => bookingResponses(set)[0]!);
const detailsOf = derivedOnce(
  (b: BookingSummaryRow): BookingDetails => ({
    BookingId: b.id,
    BookingReference: b.reference,
    AttendeeCount: b.attendeeCount,
    InvoiceUrl: `https://events.example.com/invoices/${encodeURIComponent(b.reference)}`,
    SecureKey: b.secureKey,
    LeadAttendeeReference: b.leadReference ?? '',
  }),
);

export function bookingHandlers(store: ReferenceStore): BookingHandlers {
  const page = async (eventId: number, skip: number, size: number) => {
    checkPage(skip, size);
    return found(await store.bookingPage(eventId, skip, size), `event ${eventId}`);
  };
  return {
    getBooking: async ({ bookingId }) =>
      bookingOf(found(await store.booking(bookingId), `booking ${bookingId}`)),
    getBookingDetails: async ({ bookingId }) =>
      detailsOf(found(await store.bookingSummary(bookingId), `booking ${bookingId}`)),
    getBookings: async ({ eventId, skip }) =>
      bookingResponses(await page(eventId, skip, DEFAULT_PAGE)),
    getBookingsBatch: async ({ eventId, skip, size }) =>
      bookingResponses(await page(eventId, skip, size)),
    getExtBookings: async ({ eventId, skip }) =>
      bookingExtResponses(await page(eventId, skip, DEFAULT_PAGE)),
    async cancelAttendee({ attendeeReference }) {
      if (!(await store.cancelAttendee(attendeeReference)))
        throw notFound(`attendee ${cutInput(attendeeReference)}`);
    },
    async cancelBooking({ bookingReference }) {
      if (!(await store.cancelBooking(bookingReference, nowLocal())))
        throw notFound(`booking ${cutInput(bookingReference)}`);
    },
  };
}
