// The booking reads (JSON-aggregated, set-based) return exactly what a plain query per row gives:
// every field, the order of every list, and text that JSON has to escape.
import { describe, expect, it } from 'vitest';
import type { BookingExtResponse } from '@evgen/event-management/types';
import { openDatabase, type Db } from '../../../src/reference/sqlite/open.js';
import { fixed } from '../../../src/reference/handlers/common.js';
import { SqliteStore } from '../../../src/reference/sqlite/store.js';
import { referenceHandlers } from '../../../src/reference/handlers/index.js';
import { seed } from '../../../src/reference/seed/index.js';

const ctx = { apiKey: 'test', apiKeyName: 'test', operation: 'test', binding: 'soap11' } as const;
type Row = Record<string, number | string>;

/** The bookings of an event in BookingId order, one query per booking and per attendee list. */
function expected(db: Db, eventId: number): BookingExtResponse[] {
  const all = (sql: string, ...p: unknown[]) => db.prepare(sql).all(...p) as Row[];
  return all(
    'SELECT b.*, s.name AS status FROM booking b JOIN booking_status s ON s.id = b.status_id WHERE b.event_id = ? ORDER BY b.id',
    eventId,
  ).map((b) => ({
    BookingId: b.id as number,
    BookingReference: b.reference as string,
    BookingStatus: b.status as string,
    CreatedDate: b.created as string,
    GrossCost: fixed(b.gross_cents as number, 2),
    NetCost: fixed(b.net_cents as number, 2),
    Tax: fixed(b.tax_cents as number, 2),
    IsTest: b.is_test === 1,
    Attendees: all(
      'SELECT a.*, c.*, a.id AS id, a.reference AS reference, a.created AS created, s.name AS status, at.name AS at_name, tt.name AS tt_name FROM attendee a JOIN contact c ON c.id = a.contact_id JOIN attendee_status s ON s.id = a.status_id JOIN attendee_type at ON at.id = a.attendee_type_id JOIN ticket_type tt ON tt.id = a.ticket_type_id WHERE a.booking_id = ? ORDER BY a.id',
      b.id,
    ).map((a) => ({
      AttendeeId: a.id as number,
      AttendeeReference: a.reference as string,
      AttendeeStatus: a.status as string,
      DateCreated: a.created as string,
      AttendeeType: a.at_name as string,
      AttendeeTypeId: a.attendee_type_id as number,
      TicketType: a.tt_name as string,
      TicketTypeId: a.ticket_type_id as number,
      Title: a.title as string,
      Forename: a.forename as string,
      Surname: a.surname as string,
      Organisation: a.organisation as string,
      Occupation: a.occupation as string,
      PAName: a.pa_name as string,
      MarketingOptOut: a.marketing_opt_out === 1,
      Line1: a.line1 as string,
      Line2: a.line2 as string,
      Line3: a.line3 as string,
      Town: a.town as string,
      County: a.county as string,
      Postcode: a.postcode as string,
      Country: a.country as string,
      Email: a.email as string,
      Telephone: a.telephone as string,
      Fax: a.fax as string,
      Mobile: a.mobile as string,
      Website: a.website as string,
      IsLeadAttendee: a.is_lead === 1,
      Attendance: db
        .prepare('SELECT day FROM attendee_day WHERE attendee_id = ? ORDER BY day')
        .pluck()
        .all(a.id) as string[],
      CustomFieldValues: all(
        'SELECT v.custom_field_id, f.name, v.value FROM attendee_custom_value v JOIN custom_field f ON f.id = v.custom_field_id WHERE v.attendee_id = ? ORDER BY v.custom_field_id',
        a.id,
      ).map((v) => ({
        CustomFieldId: v.custom_field_id as number,
        Name: v.name as string,
        Value: v.value as string,
      })),
      BookableSessionSignups: all(
        'SELECT g.session_id, s.title, g.is_waiting_list FROM session_signup g JOIN bookable_session s ON s.id = g.session_id WHERE g.attendee_id = ? ORDER BY g.session_id',
        a.id,
      ).map((g) => ({
        BookableSessionId: g.session_id as number,
        Title: g.title as string,
        IsWaitingList: g.is_waiting_list === 1,
      })),
      Reservations: all(
        'SELECT id, performance_id, quantity FROM reservation WHERE attendee_id = ? ORDER BY id',
        a.id,
      ).map((r) => ({
        ReservationId: r.id as number,
        ShowPerformanceID: r.performance_id as number,
        Quantity: r.quantity as number,
      })),
      CountryCode: a.country_code as string,
      AttendedStatus: a.attended === 1,
    })),
  }));
}

const withoutExt = (bookings: BookingExtResponse[]) =>
  bookings.map((b) => ({
    ...b,
    Attendees: b.Attendees.map(({ CountryCode: _c, AttendedStatus: _a, ...a }) => a),
  }));

describe('booking reads', () => {
  const db = openDatabase(':memory:');
  seed(db, { events: 4, bookings: 240 });
  const h = referenceHandlers(new SqliteStore(db));
  const eventId = db
    .prepare('SELECT event_id FROM booking GROUP BY event_id ORDER BY count(*) DESC LIMIT 1')
    .pluck()
    .get() as number;
  const [a1, a2] = db
    .prepare(
      'SELECT a.id, a.contact_id FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE b.event_id = ? ORDER BY a.id DESC LIMIT 2',
    )
    .all(eventId) as { id: number; contact_id: number }[];
  // Text JSON must escape, characters outside the BMP, and lists written out of order.
  db.prepare(
    'UPDATE contact SET forename = ?, surname = ?, line3 = ?, website = ? WHERE id = ?',
  ).run(
    'Zoë "Q" \\ O\'Brien',
    'tab\tnew\nline\u0000nul',
    '😀 \u2028 </x> &amp;',
    '',
    a1!.contact_id,
  );
  for (const day of ['2026-03-02T00:00:00', '2026-03-01T00:00:00', '2026-02-28T00:00:00'])
    db.prepare('INSERT OR IGNORE INTO attendee_day (attendee_id, day) VALUES (?, ?)').run(
      a1!.id,
      day,
    );
  const fields = db
    .prepare('SELECT id FROM custom_field WHERE event_id = ? ORDER BY id DESC')
    .pluck()
    .all(eventId) as number[];
  for (const f of fields)
    db.prepare(
      'INSERT OR REPLACE INTO attendee_custom_value (attendee_id, custom_field_id, value) VALUES (?, ?, ?)',
    ).run(a2!.id, f, `value ${f} ✓`);
  const sessions = db
    .prepare('SELECT id FROM bookable_session WHERE event_id = ? ORDER BY id DESC')
    .pluck()
    .all(eventId) as number[];
  for (const [i, s] of sessions.entries())
    db.prepare(
      'INSERT OR REPLACE INTO session_signup (attendee_id, session_id, is_waiting_list) VALUES (?, ?, ?)',
    ).run(a2!.id, s, i % 2);
  for (const q of [3, 2147483647, 1])
    db.prepare(
      'INSERT INTO reservation (attendee_id, performance_id, quantity) VALUES (?, (SELECT max(id) FROM show_performance), ?)',
    ).run(a2!.id, q);

  it('GetExtBookings and GetBookings equal a query per row, fields and list order', async () => {
    const want = expected(db, eventId);
    expect(want.length).toBeGreaterThan(40);
    expect(await h.getExtBookings({ eventId, skip: 0 }, ctx)).toEqual(want);
    expect(await h.getBookings({ eventId, skip: 0 }, ctx)).toEqual(withoutExt(want));
    const tricky = want.flatMap((b) => b.Attendees).find((a) => a.AttendeeId === a1!.id)!;
    expect(tricky).toMatchObject({
      Forename: 'Zoë "Q" \\ O\'Brien',
      Surname: 'tab\tnew\nline\u0000nul',
      Line3: '😀 \u2028 </x> &amp;',
    });
    expect(tricky.Attendance!.length).toBeGreaterThanOrEqual(3);
  });

  it('GetBookingsBatch pages and GetBooking equal the same records', async () => {
    const want = withoutExt(expected(db, eventId));
    for (const [skip, size] of [
      [0, 1],
      [3, 7],
      [want.length - 2, 5],
      [want.length, 5],
    ] as const) {
      expect(
        await h.getBookingsBatch({ eventId, skip, size }, ctx),
        `skip ${skip} size ${size}`,
      ).toEqual(want.slice(skip, skip + size));
    }
    for (const b of [want[0]!, want.at(-1)!])
      expect(await h.getBooking({ bookingId: b.BookingId }, ctx)).toEqual(b);
  });
});
