// Deterministic benchmark data: bookings with two attendees each and some nil fields.
import type { AttendeeResponse, BookingResponse } from '@evgen/event-management/types';

function attendee(b: number, i: number): AttendeeResponse {
  const id = b * 2 + i;
  return {
    AttendeeId: id,
    AttendeeReference: `CONF001-A${String(id).padStart(7, '0')}`,
    AttendeeStatus: 'Attending',
    DateCreated: '2026-03-04T10:11:12',
    AttendeeType: 'Delegate',
    AttendeeTypeId: 1,
    TicketType: 'Delegate – Standard',
    TicketTypeId: 1,
    Title: 'Dr',
    Forename: 'Ada',
    Surname: `Lovelace ${id}`,
    Organisation: 'Analytical Engines & Co',
    Occupation: 'Engineer',
    PAName: '',
    MarketingOptOut: false,
    Line1: '12 High Street',
    Line2: 'Floor 2',
    Line3: '',
    Town: 'London',
    County: 'Greater London',
    Postcode: 'EC1A 1BB',
    Country: 'United Kingdom',
    Email: `ada.${id}@example.com`,
    Telephone: '+44 20 7946 0000',
    Fax: '',
    Mobile: '+44 7700 900000',
    Website: '',
    IsLeadAttendee: i === 0,
    Attendance: id % 3 === 0 ? null : ['2026-06-01T00:00:00', '2026-06-02T00:00:00'],
    CustomFieldValues: [{ CustomFieldId: 1, Name: 'Dietary requirements', Value: 'Vegetarian' }],
    BookableSessionSignups:
      id % 2 ? null : [{ BookableSessionId: 3, Title: 'Session 1', IsWaitingList: false }],
    Reservations: id % 5 ? [] : null,
  };
}

export function bookings(n: number): BookingResponse[] {
  return Array.from({ length: n }, (_, b) => ({
    BookingId: b + 1,
    BookingReference: `CONF001-${String(b + 1).padStart(6, '0')}`,
    BookingStatus: 'Confirmed',
    CreatedDate: '2026-03-04T10:11:12',
    GrossCost: '240.00',
    NetCost: '200.00',
    Tax: '40.00',
    IsTest: b % 25 === 0,
    Attendees: [attendee(b, 0), attendee(b, 1)],
  }));
}
