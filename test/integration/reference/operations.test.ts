// Every operation of the reference service against a seeded database, asserting values (compared
// with the database) rather than shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../../src/reference/tokens.js';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
beforeAll(async () => {
  ref = await startReference();
});
afterAll(() => ref.stop());

const one = <T extends object>(sql: string, ...args: unknown[]) => ref.one<T>(sql, ...args);
const cents = (s: string) => Number(s.replace('.', ''));
/** expect.stringContaining, typed: vitest declares its matchers as `any`. */
const containing = (s: string): unknown => expect.stringContaining(s);

describe('bookings', () => {
  it('pages GetBookingsBatch by BookingId with skip and size', async () => {
    const c = ref.client();
    const ids = await ref.column<number>('SELECT id FROM booking WHERE event_id = 1 ORDER BY id');
    const first = await c.getBookingsBatch({ eventId: 1, skip: 0, size: 5 });
    expect(first.map((b) => b.BookingId)).toEqual(ids.slice(0, 5));
    const next = await c.getBookingsBatch({ eventId: 1, skip: 3, size: 4 });
    expect(next.map((b) => b.BookingId)).toEqual(ids.slice(3, 7));
    expect((await c.getBookings({ eventId: 1, skip: 0 })).length).toBe(ids.length);
    for (const b of first) expect(cents(b.GrossCost)).toBe(cents(b.NetCost) + cents(b.Tax));
  });

  it('returns one booking with attendees equal to its page entry', async () => {
    const c = ref.client('httpGet');
    const [b] = await c.getBookingsBatch({ eventId: 2, skip: 0, size: 1 });
    expect(await c.getBooking({ bookingId: b!.BookingId })).toEqual(b);
    const row = await one<{ reference: string; n: number }>(
      'SELECT reference, (SELECT count(*) FROM attendee WHERE booking_id = booking.id) AS n FROM booking WHERE id = ?',
      b!.BookingId,
    );
    expect(b!.BookingReference).toBe(row.reference);
    expect(b!.Attendees).toHaveLength(row.n);
    expect(b!.Attendees.filter((a) => a.IsLeadAttendee)).toHaveLength(1);
    const details = await c.getBookingDetails({ bookingId: b!.BookingId });
    expect(details).toMatchObject({
      BookingId: b!.BookingId,
      BookingReference: row.reference,
      AttendeeCount: row.n,
      LeadAttendeeReference: b!.Attendees.find((a) => a.IsLeadAttendee)!.AttendeeReference,
    });
  });

  it('adds CountryCode and AttendedStatus in GetExtBookings', async () => {
    const [b] = await ref.client('soap12').getExtBookings({ eventId: 1, skip: 0 });
    const a = b!.Attendees[0]!;
    expect(a.CountryCode).toBe(
      (
        await one<{ country_code: string }>(
          'SELECT c.country_code FROM attendee a JOIN contact c ON c.id = a.contact_id WHERE a.id = ?',
          a.AttendeeId,
        )
      ).country_code,
    );
    expect(typeof a.AttendedStatus).toBe('boolean');
  });

  it('refuses invalid paging with InvalidParameter and unknown ids with NotFound', async () => {
    const c = ref.client();
    await expect(c.getBookingsBatch({ eventId: 1, skip: -1, size: 5 })).rejects.toMatchObject({
      code: 'InvalidParameter',
      faultString: 'skip must be 0 or more, got -1',
    });
    await expect(c.getBookingsBatch({ eventId: 1, skip: 0, size: 0 })).rejects.toMatchObject({
      code: 'InvalidParameter',
    });
    await expect(c.getBookingsBatch({ eventId: 1, skip: 0, size: 1001 })).rejects.toMatchObject({
      code: 'InvalidParameter',
    });
    await expect(c.getBooking({ bookingId: 999999 })).rejects.toMatchObject({
      code: 'NotFound',
      faultString: 'booking 999999 does not exist',
    });
    await expect(c.getBookings({ eventId: 999, skip: 0 })).rejects.toMatchObject({
      code: 'NotFound',
    });
  });
});

describe('events', () => {
  it('computes event details from live data', async () => {
    const c = ref.client();
    const d7 = await c.getEventDetails7({ eventId: 4 });
    const e = await one<{ title: string; roadshow_id: number | null; code: string }>(
      'SELECT title, roadshow_id, code FROM event WHERE id = 4',
    );
    const attending = (
      await one<{ n: number }>(
        "SELECT count(*) AS n FROM attendee a JOIN booking b ON b.id = a.booking_id JOIN attendee_status s ON s.id = a.status_id WHERE b.event_id = 4 AND s.status_type = 'Attending'",
      )
    ).n;
    expect(d7).toMatchObject({
      EventId: 4,
      Title: e.title,
      Code: e.code,
      RoadshowId: e.roadshow_id ?? 0,
      AttendeeCount: attending,
    });
    expect(d7.Profiles.length).toBeGreaterThan(0);
    const d3 = await c.getEventDetails3({ eventId: 4 });
    expect(d3).toMatchObject({
      EventId: 4,
      Title: e.title,
      AttendeeCount: attending,
      ExternalURLPwd: '',
    });
    expect(d3).not.toHaveProperty('RoadshowId');
  });

  it('searches with free text and whitelisted fields', async () => {
    const c = ref.client();
    const code = (await one<{ code: string }>('SELECT code FROM event WHERE id = 3')).code;
    const byCode = await c.eventProfileSearch({ searchQuery: `code:${code}` });
    expect(byCode.Events.map((m) => m.Event.EventId)).toEqual([3]);
    expect(byCode.Events[0]!.Event.DefaultTaxRate).toBe('0.20000');
    expect(byCode.Events[0]!.Websites.length).toBe(2);
    const archived = await c.eventProfileSearch({ searchQuery: 'archived:true' });
    expect(archived.Events.map((m) => m.Event.EventId)).toEqual([6, 12]);
    const text = await c.eventProfileSearch({ searchQuery: '"Data & AI" type:Webinar' });
    for (const m of text.Events) expect(m.Event.Title).toContain('Data & AI');
    await expect(c.eventProfileSearch({ searchQuery: 'colour:red' })).rejects.toMatchObject({
      code: 'InvalidParameter',
      faultString: containing('unknown field "colour"; allowed: code, country'),
    });
  });

  it('lists calendar events in a range, archived only when asked', async () => {
    const c = ref.client('httpPost');
    const all = await c.getCalendarEventsByDateRange({
      fromDate: '2025-01-01T00:00:00',
      toDate: '2027-12-31T23:59:59',
      includeArchived: true,
    });
    const live = await c.getCalendarEventsByDateRange({
      fromDate: '2025-01-01T00:00:00',
      toDate: '2027-12-31T23:59:59',
      includeArchived: false,
    });
    expect(all.Events).toHaveLength(12);
    expect(live.Events.map((e) => e.EventId)).toEqual(
      all.Events.map((e) => e.EventId).filter((id) => id % 6 !== 0),
    );
    expect(all.SystemOwnerEmail).toBe('owner@events.example.com');
    const attendees = await c.getCalendarAttendeesForEvent({ eventId: 1 });
    expect(attendees.Attendees.length).toBe(
      (
        await one<{ n: number }>(
          'SELECT count(*) AS n FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE b.event_id = 1',
        )
      ).n,
    );
  });

  it('reads the set-up of an event', async () => {
    const c = ref.client('soap12');
    const types = await c.getAttendeeTypes({ eventId: 1 });
    expect(types.map((t) => t.Name)).toEqual(['Delegate', 'Speaker', 'Exhibitor']);
    const delegate = types[0]!.TicketTypes;
    expect(delegate.map((t) => t.Name)).toEqual(['Delegate – Standard', 'Delegate – Early Bird']);
    expect(delegate[1]).toMatchObject({
      Capacity: 5000,
      TaxRate: '0.20000',
      NumberOfDaysValid: null,
    });
    expect(delegate[0]).not.toHaveProperty('MinAge');
    const sessions = await c.getBookableSessions({ eventId: 1 });
    expect(sessions).toHaveLength(3);
    expect(sessions[1]!.WaitingListCapacity).toBeNull();
    expect(sessions[2]!.Code).toBe('');
    const statuses = await c.getAttendeeStatuses({ eventId: 1 });
    expect(statuses.map((s) => [s.Name, s.IsDefault])).toEqual([
      ['Attending', true],
      ['Cancelled', false],
      ['Waiting List', false],
      ['Attended', false],
    ]);
    const fields = await c.getCustomFields({ eventId: 1 });
    expect(fields[0]!.Values).toEqual(['None', 'Vegetarian', 'Vegan', 'Halal', 'Kosher']);
    expect(await c.getAccommodation({ eventId: 1 })).toEqual({});
    await expect(c.getAccommodation({ eventId: 404 })).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('reads ticket types across a roadshow with MinAge and ExternalSite', async () => {
    const rows = await ref.client().getTicketTypesByRoadshowId({ roadshowId: 1 });
    expect(rows.map((r) => r.EventId)).toEqual(
      await ref.column<number>(
        'SELECT id FROM event WHERE roadshow_id = 1 ORDER BY start_date, id',
      ),
    );
    expect(rows[0]!.TicketTypes[0]).toMatchObject({ MinAge: 18, ExternalSite: false });
    expect(rows[0]!.MaxAllowableGuestsOnRoadshow).toBe(2);
  });

  it('reads submissions, shows, speakers and sub-client companies', async () => {
    const c = ref.client('httpGet');
    const subs = await c.getSubmissionsForEvent2({ eventId: 1, clientUserId: 1 });
    expect(subs.length).toBe(
      (await one<{ n: number }>('SELECT count(*) AS n FROM submission WHERE event_id = 1')).n,
    );
    expect(subs[0]!.Authors[0]!.AttendeeId).toBe(subs[0]!.LeadAttendeeId);
    const shows = await c.getShows();
    expect(shows.map((s) => s.Name)).toEqual(['Gala Dinner', 'Awards Night', 'Evening Concert']);
    for (const s of shows) {
      expect(cents(s.Revenue)).toBe(s.ShowPerformance.reduce((a, p) => a + cents(p.Revenue), 0));
      expect(s.Sold).toBe(s.ShowPerformance.reduce((a, p) => a + p.Sold, 0));
    }
    expect(shows[0]!.ShowPerformance[0]!.ShowSKU).toBeNull();
    const speakers = await c.getSpeakersforSeries({ seriesValue: 'Data Week' });
    expect(speakers.length).toBe(
      (
        await one<{ n: number }>(
          "SELECT count(*) AS n FROM speaker_series WHERE series = 'Data Week'",
        )
      ).n,
    );
    expect(await c.getSpeakersforSeries({ seriesValue: 'No Such Series' })).toEqual([]);
    const subsidiaries = await c.getSubClientCompanyList();
    expect(subsidiaries.map((s) => s.Name)).toEqual([
      'Acme North',
      'Acme South',
      'Acme Digital',
      'Acme & Partners',
    ]);
    expect(subsidiaries[0]!.ClientCompanyName).toBe('Acme Events Ltd');
  });
});

describe('contacts', () => {
  it('returns the contact shapes, with Password always nil', async () => {
    const c = ref.client();
    const c1 = await c.getContact({ email: 'demo@example.com' });
    const c2 = await c.getContact2({ emailAddress: 'DEMO@example.com' });
    expect(c1).toMatchObject({ ContactId: 1, Email: 'demo@example.com' });
    expect(c2).toMatchObject({ ContactId: 1, Email: 'demo@example.com', Password: null });
    expect(c2.ProfileValues.length).toBe(1);
    await expect(c.getContact({ email: 'nobody@example.com' })).rejects.toMatchObject({
      code: 'NotFound',
    });
  });

  it('lists the events of a contact with the documented filters', async () => {
    const c = ref.client();
    const contactId = (
      await one<{ contact_id: number }>(
        'SELECT contact_id FROM attendee GROUP BY contact_id ORDER BY count(*) DESC LIMIT 1',
      )
    ).contact_id;
    const real = await c.getEventsByContactId({
      contactId,
      includeArchived: true,
      isTestBookingForm: false,
    });
    const want = await ref.column<number>(
      'SELECT DISTINCT b.event_id FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.contact_id = ? AND b.is_test = 0',
      contactId,
    );
    expect(real.map((e) => e.EventId).sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
    const live = await c.getEventsByContactId({
      contactId,
      includeArchived: false,
      isTestBookingForm: false,
    });
    expect(live.every((e) => e.EventId % 6 !== 0)).toBe(true);
    const email = (
      await one<{ email: string }>('SELECT email FROM contact WHERE id = ?', contactId)
    ).email;
    const history = await c.getContactEventHistory3({ email });
    expect(history.length).toBe(
      (
        await one<{ n: number }>(
          'SELECT count(*) AS n FROM attendee WHERE contact_id = ?',
          contactId,
        )
      ).n,
    );
  });

  it('verifies tokens: single-use once, reusable many times, expired and unknown refused', async () => {
    const c = ref.client();
    const single = await ref.svc.database.run(createToken({ contactId: 1, singleUse: true }));
    expect(
      await c.verifyTokenForContact({ tokenType: 'ContactRegistration', tokenValue: single.token }),
    ).toEqual({ ContactId: 1, ContactEmail: 'demo@example.com' });
    await expect(
      c.verifyTokenForContact({ tokenType: 'ContactRegistration', tokenValue: single.token }),
    ).rejects.toMatchObject({
      code: 'NotFound',
      faultString: containing('already used'),
    });
    const reusable = await ref.svc.database.run(createToken({ contactId: 2, singleUse: false }));
    for (let i = 0; i < 2; i++)
      expect(
        (
          await c.verifyTokenForContact({
            tokenType: 'ContactRegistration',
            tokenValue: reusable.token,
          })
        ).ContactId,
      ).toBe(2);
    const expired = await ref.svc.database.run(
      createToken({
        contactId: 2,
        singleUse: false,
        ttlMs: 1000,
        now: Date.now() - 5000,
      }),
    );
    await expect(
      c.verifyTokenForContact({ tokenType: 'ContactRegistration', tokenValue: expired.token }),
    ).rejects.toMatchObject({ code: 'NotFound', faultString: containing('expired') });
    await expect(
      c.verifyTokenForContact({ tokenType: 'ContactRegistration', tokenValue: 'nope' }),
    ).rejects.toMatchObject({ code: 'NotFound', faultString: 'token is unknown' });
    await expect(
      c.verifyTokenForContact({ tokenType: 'Other', tokenValue: reusable.token }),
    ).rejects.toMatchObject({ code: 'InvalidParameter' });
  });
});

describe('writes', () => {
  it('books, writes the BookingUpdated e-mail, and cancels idempotently', async () => {
    const c = ref.client();
    const t = await one<{ id: number; attendee_type_id: number }>(
      "SELECT t.id, l.attendee_type_id FROM ticket_type t JOIN ticket_type_attendee_type l ON l.ticket_type_id = t.id WHERE t.event_id = 2 AND t.name LIKE 'Delegate – Standard'",
    );
    const made = await c.submitSimpleBookingWithBookingStatus({
      eventId: 2,
      attendeeTypeId: t.attendee_type_id,
      ticketTypeId: t.id,
      bookingStatusId: 1,
      contactId: 1,
    });
    const prefix = (
      await one<{ booking_prefix: string }>('SELECT booking_prefix FROM event WHERE id = 2')
    ).booking_prefix;
    expect(made.BookingReference).toMatch(new RegExp(`^${prefix}-\\d{6}$`));
    const booking = await c.getBooking({ bookingId: made.BookingId });
    expect(booking).toMatchObject({
      BookingStatus: 'Confirmed',
      Attendees: [
        {
          AttendeeId: made.AttendeeId,
          Email: 'demo@example.com',
          IsLeadAttendee: true,
          AttendeeStatus: 'Attending',
        },
      ],
    });
    expect(
      await one<{ kind: string; recipient: string }>(
        'SELECT kind, recipient FROM outbox WHERE booking_id = ?',
        made.BookingId,
      ),
    ).toEqual({ kind: 'BookingUpdated', recipient: 'demo@example.com' });

    await c.cancelAttendee({ attendeeReference: booking.Attendees[0]!.AttendeeReference });
    expect((await c.getBooking({ bookingId: made.BookingId })).Attendees[0]!.AttendeeStatus).toBe(
      'Cancelled',
    );
    await c.cancelBooking({ bookingReference: made.BookingReference });
    await c.cancelBooking({ bookingReference: made.BookingReference });
    expect((await c.getBooking({ bookingId: made.BookingId })).BookingStatus).toBe('Cancelled');
    await expect(c.cancelBooking({ bookingReference: 'NOPE-1' })).rejects.toMatchObject({
      code: 'NotFound',
    });
    await expect(c.cancelAttendee({ attendeeReference: 'NOPE-A1' })).rejects.toMatchObject({
      code: 'NotFound',
    });
  });

  it('refuses bookings whose parts do not fit together', async () => {
    const c = ref.client();
    const t1 = await one<{ id: number; attendee_type_id: number }>(
      'SELECT t.id, l.attendee_type_id FROM ticket_type t JOIN ticket_type_attendee_type l ON l.ticket_type_id = t.id WHERE t.event_id = 1 ORDER BY t.id LIMIT 1',
    );
    const base = {
      eventId: 1,
      attendeeTypeId: t1.attendee_type_id,
      ticketTypeId: t1.id,
      bookingStatusId: 1,
      contactId: 1,
    };
    await expect(
      c.submitSimpleBookingWithBookingStatus({ ...base, eventId: 2 }),
    ).rejects.toMatchObject({
      code: 'InvalidParameter',
      faultString: containing('does not belong to event 2'),
    });
    await expect(
      c.submitSimpleBookingWithBookingStatus({ ...base, ticketTypeId: t1.id + 2 }),
    ).rejects.toMatchObject({
      code: 'InvalidParameter',
      faultString: containing('does not belong to attendee type'),
    });
    await expect(
      c.submitSimpleBookingWithBookingStatus({ ...base, bookingStatusId: 99 }),
    ).rejects.toMatchObject({ code: 'NotFound' });
    await expect(
      c.submitSimpleBookingWithBookingStatus({ ...base, contactId: 999999 }),
    ).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('logs one line per request without secrets', async () => {
    ref.logs.length = 0;
    await ref.client().getShows();
    expect(ref.logs).toHaveLength(1);
    expect(JSON.parse(ref.logs[0]!)).toMatchObject({
      operation: 'GetShows',
      binding: 'soap11',
      status: 200,
      apiKeyName: 'demo',
    });
    expect(ref.logs[0]).not.toContain(ref.svc.demoKey!.secretKey);
  });
});
