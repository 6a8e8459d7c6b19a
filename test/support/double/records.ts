// The records of the conformance test double, written by hand from the interface document
// (Resources: Calendar events result, Attendee status, Attendee type, Ticket type, Sub-client
// company, BookingDetails), each with the defects that change its XML.
import { EVENT_RECORDS } from './events.js';
import { PEOPLE_RECORDS } from './people.js';
import { el, nil, type Has } from './xml.js';

export const EVENT_IDS = [501, 502];
export const BOOKING_ID = 9001;

function calendarEvent(id: number, has: Has): string {
  const start = has('datetime-zone') ? '2026-05-01T09:00:00Z' : '2026-05-01T09:00:00';
  const count = has('renamed-field') ? 'NumberOfAttendees' : 'NumAttendees';
  return el(
    'CalendarEventResponse',
    [
      el('EventId', id),
      el('Title', `Conference ${id}`),
      el('Description', 'Two days of talks'),
      el('StartDate', start),
      el('Location', 'Leeds'),
      el('Country', 'United Kingdom'),
      el('Type', 'Conference'),
      el('EventStatus', 'Live'),
      el(count, 42),
      el('HelpDeskEmail', 'help@example.org'),
    ].join(''),
  );
}

function attendeeStatus(id: number, eventId: number, isDefault: boolean, has: Has): string {
  const bool = (b: boolean) => (has('boolean-case') ? (b ? 'True' : 'False') : String(b));
  return el(
    'AttendeeStatusResponse',
    [
      el('AttendeeStatusId', id),
      el('Name', isDefault ? 'Confirmed' : 'Cancelled'),
      el('IsAttending', bool(isDefault)),
      el('IsDefault', bool(isDefault)),
      has('omitted-nulls') ? '' : el('StatusType', isDefault ? 'Attending' : 'Cancelled'),
      el('EventId', eventId),
      el('LinkedBookingStatusId', isDefault ? 3 : 4),
    ].join(''),
  );
}

function ticketType(has: Has, binding: string): string {
  return el(
    'TicketTypeResponse',
    [
      el('TicketTypeId', 77),
      el('Name', 'Standard'),
      nil('Capacity', has, binding),
      el('GrossPrice', has('decimal-scale') ? '12.5' : '12.50000'),
      el('TaxRate', '0.20000'),
      has('attendee-type-names')
        ? el('AttendeeTypes', el('string', 'Delegate'))
        : nil('AttendeeTypes', has, binding),
      el('AttendeeCount', 4),
      nil('NumberOfDaysValid', has, binding),
      el('IsOpen', 'true'),
      el('AvailabilityStartDate', '2026-01-01T00:00:00'),
      el('AvailabilityEndDate', '2026-04-30T23:59:59'),
      el(
        'AttendanceType',
        el('TicketAttendanceTypeResponse', el('Id', 1) + el('Name', 'In person')),
      ),
      el('TicketTypeDays', el('TicketTypeDayResponse', el('Date', '2026-05-01T00:00:00'))),
    ].join(''),
  );
}

function subClientCompany(id: number, has: Has): string {
  const item = has('list-item-name') ? 'SubClientCompany' : 'GetSubClientCompanyListResponse';
  return el(
    item,
    [
      el('Name', `Division ${id}`),
      has('missing-required') ? '' : el('ClientCompanyId', id),
      el('ClientCompanyName', 'Example Events Ltd'),
    ].join(''),
  );
}

export interface Answer {
  /** The Result element's content; null: no result (a void operation, or a null one). */
  readonly inner: string | null;
  /** Root element of HTTP GET/POST answers. */
  readonly httpRoot: string;
}

/** The result's content for an operation the double implements, `null` for an unknown record. */
export type Implemented = (
  params: Record<string, string>,
  has: Has,
  binding: string,
) => Answer | null;

const knownEvent = (p: Record<string, string>) => EVENT_IDS.includes(Number(p.eventId));

export const OPERATIONS: Readonly<Record<string, Implemented>> = {
  ...EVENT_RECORDS,
  ...PEOPLE_RECORDS,
  GetCalendarEventsByDateRange: (_p, has) => ({
    inner:
      el('SystemOwnerEmail', 'owner@example.org') +
      el('SystemOwnerFullname', 'Olive Owner') +
      el('Events', EVENT_IDS.map((id) => calendarEvent(id, has)).join('')),
    httpRoot: has('http-wrong-root') ? 'CalendarEvents' : 'CalendarEventsResponse',
  }),
  GetAttendeeStatuses: (p, has) =>
    knownEvent(p)
      ? {
          inner:
            attendeeStatus(1, Number(p.eventId), true, has) +
            attendeeStatus(2, Number(p.eventId), false, has),
          httpRoot: 'ArrayOfAttendeeStatusResponse',
        }
      : null,
  GetAttendeeTypes: (p, has, binding) =>
    knownEvent(p)
      ? {
          inner: el(
            'AttendeeTypeResponse',
            el('AttendeeTypeId', 11) +
              el('Name', 'Delegate') +
              el('TicketTypes', ticketType(has, binding)),
          ),
          httpRoot: has('note-a-root') ? 'AttendeeTypes' : 'ArrayOfAttendeeTypeResponse',
        }
      : null,
  GetSubClientCompanyList: (_p, has) => ({
    inner: subClientCompany(1, has) + subClientCompany(2, has),
    httpRoot: 'ArrayOfGetSubClientCompanyListResponse',
  }),
  GetBookingDetails: (p, has) =>
    Number(p.bookingId) === BOOKING_ID
      ? {
          inner: [
            el('BookingId', BOOKING_ID),
            el('BookingReference', 'BK-9001'),
            el('AttendeeCount', 1),
            has('omitted-nulls') ? '' : el('InvoiceUrl', 'https://example.org/invoice/BK-9001'),
            el('SecureKey', 'a1b2c3'),
            el('LeadAttendeeReference', 'AT-1'),
          ].join(''),
          httpRoot: 'BookingDetails',
        }
      : null,
};
