// Bookings and contacts of the double, from the document (Resources: Booking, Attendee, Contact)
// and the decisions of spec/gaps.yaml (attendee-list-items, contact-response-fields,
// contact-password), each with the defects that break those decisions.
import type { Implemented } from './records.js';
import { each, el, nil, type Has } from './xml.js';

export const CONTACT_EMAIL = 'ada@example.org';
const ADDRESS =
  'Title Forename Surname Organisation Occupation PAName Line1 Line2 Line3 Town County Postcode Country';

function attendee(has: Has, binding: string): string {
  const customItem = has('custom-field-item-name')
    ? 'CustomFieldValue'
    : 'CustomFieldValueResponse';
  return el(
    'AttendeeResponse',
    el('AttendeeId', 1) +
      el('AttendeeReference', 'AT-1') +
      el('AttendeeStatus', 'Confirmed') +
      el('DateCreated', '2026-03-01T10:00:00') +
      el('AttendeeType', 'Delegate') +
      el('AttendeeTypeId', 11) +
      el('TicketType', 'Standard') +
      el('TicketTypeId', 77) +
      each(ADDRESS, (n) => n) +
      el('MarketingOptOut', 'false') +
      el('Email', CONTACT_EMAIL) +
      each('Telephone Fax Mobile Website', (n) => n) +
      el('IsLeadAttendee', 'true') +
      el('Attendance', el('dateTime', '2026-05-01T00:00:00')) +
      el(
        'CustomFieldValues',
        el(customItem, el('CustomFieldId', 5) + el('Name', 'Diet') + el('Value', 'None')),
      ) +
      el(
        'BookableSessionSignups',
        el(
          'BookableSessionSignupResponse',
          el('BookableSessionId', 31) + el('Title', 'Workshop') + el('IsWaitingList', 'false'),
        ),
      ) +
      nil('Reservations', has, binding),
  );
}

const booking = (has: Has, binding: string) =>
  el(
    'BookingResponse',
    el('BookingId', 9001) +
      el('BookingReference', 'BK-9001') +
      el('BookingStatus', 'Confirmed') +
      el('CreatedDate', '2026-03-01T10:00:00') +
      each('GrossCost NetCost', () => '120.00') +
      el('Tax', '20.00') +
      el('IsTest', 'false') +
      el('Attendees', attendee(has, binding)),
  );

/** ContactResponse as decided: Title, the contact fields of ContactResponse2, no login data. */
const contact = (has: Has) =>
  each(ADDRESS, (n) => n) +
  el('Email', CONTACT_EMAIL) +
  each('Telephone Fax Mobile Website', (n) => n) +
  el('ContactId', 3) +
  el('MarketingOptOut', 'false') +
  (has('contact-login-data') ? el('Password', 'hunter2') : '');

/** ContactResponse2: Password kept in the shape, always nil (only salted hashes are stored). */
const contact2 = (has: Has, binding: string) =>
  el('ContactId', 3) +
  el('Reg_Status', 1) +
  each(ADDRESS, (n) => n) +
  el('Email', CONTACT_EMAIL) +
  each('Telephone Fax Mobile Website Code Reference', (n) => n) +
  (has('contact-password-sent') ? el('Password', 'hunter2') : nil('Password', has, binding)) +
  each('ProfileString TwitterURL FacebookURL LinkedInURL GoogleURL ShortBio Bio', (n) => n) +
  el('MarketingOptOut', 'false') +
  el('DateOfBirth', '1990-01-01T00:00:00') +
  el('ProfileValues', el('ProfileValue', el('Id', 1) + el('Name', 'Speaker')));

export const ATTENDEE_REFERENCE = 'AT-1';
export const BOOKING_REFERENCE = 'BK-9001';

export const PEOPLE_RECORDS: Readonly<Record<string, Implemented>> = {
  // Void: the answer holds no result.
  CancelAttendee: (p) =>
    p.attendeeReference === ATTENDEE_REFERENCE ? { inner: null, httpRoot: '' } : null,
  CancelBooking: (p) =>
    p.bookingReference === BOOKING_REFERENCE ? { inner: null, httpRoot: '' } : null,
  GetBookings: (p, has, binding) =>
    Number(p.eventId) === 501 && Number(p.skip) === 0
      ? { inner: booking(has, binding), httpRoot: 'ArrayOfBookingResponse' }
      : null,
  GetContact: (p, has) =>
    p.email === CONTACT_EMAIL ? { inner: contact(has), httpRoot: 'ContactResponse' } : null,
  GetContact2: (p, has, binding) =>
    p.emailAddress === CONTACT_EMAIL
      ? { inner: contact2(has, binding), httpRoot: 'ContactResponse2' }
      : null,
};
