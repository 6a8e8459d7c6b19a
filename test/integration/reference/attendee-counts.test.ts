// The attendee counts of migration 2 always equal the GROUP BYs over attendee they replace: after
// the back-fill, after every write the service makes (from this or another connection), and after
// writes no handler makes. The handlers that show counts are checked against the live rows too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandlers } from '@evgen/event-management/server';
import {
  LIVE_EVENT_COUNTS,
  LIVE_TICKET_COUNTS,
} from '../../../src/reference/db/attendee-counts.js';
import { MIGRATIONS } from '../../../src/reference/db/migrations.js';
import { migrate, openDatabase, type Db } from '../../../src/reference/db/open.js';
import { SqliteStore } from '../../../src/reference/db/store.js';
import { referenceHandlers } from '../../../src/reference/handlers/index.js';
import { seed } from '../../../src/reference/seed/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-counts-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const ctx = { apiKey: 'test', apiKeyName: 'test', operation: 'test', binding: 'soap11' } as const;
type Count = { id: number; status_type: string; n: number };

function expectCountsLive(db: Db): void {
  const stored = (sql: string) => db.prepare(sql).all() as Count[];
  expect(
    stored(
      'SELECT event_id AS id, status_type, n FROM event_attendee_count WHERE n <> 0 ORDER BY 1, 2',
    ),
  ).toEqual(stored(LIVE_EVENT_COUNTS.replace('b.event_id,', 'b.event_id AS id,')));
  expect(
    stored(
      'SELECT ticket_type_id AS id, status_type, n FROM ticket_attendee_count WHERE n <> 0 ORDER BY 1, 2',
    ),
  ).toEqual(stored(LIVE_TICKET_COUNTS.replace('a.ticket_type_id,', 'a.ticket_type_id AS id,')));
  expect(db.prepare('SELECT count(*) FROM event_attendee_count WHERE n < 0').pluck().get()).toBe(0);
}

/** What GetEventDetails, the calendar and GetAttendeeTypes say, against counts taken from the rows. */
async function expectHandlersLive(db: Db, h: ServiceHandlers): Promise<void> {
  const live = db.prepare(
    "SELECT b.event_id, sum(s.status_type = 'Attending') AS attending, sum(s.status_type = 'Waiting') AS waiting, sum(s.status_type = 'Cancelled') AS cancelled FROM attendee a JOIN attendee_status s ON s.id = a.status_id JOIN booking b ON b.id = a.booking_id WHERE b.event_id = ?",
  );
  const liveTicket = db
    .prepare(
      "SELECT count(*) FROM attendee a JOIN attendee_status s ON s.id = a.status_id WHERE a.ticket_type_id = ? AND s.status_type <> 'Cancelled'",
    )
    .pluck();
  const calendar = await h.getCalendarEventsByDateRange(
    { fromDate: '2000-01-01T00:00:00', toDate: '2100-01-01T00:00:00', includeArchived: true },
    ctx,
  );
  for (const eventId of db.prepare('SELECT id FROM event ORDER BY id').pluck().all() as number[]) {
    const want = live.get(eventId) as {
      attending: number | null;
      waiting: number | null;
      cancelled: number | null;
    };
    const counts = {
      AttendeeCount: want.attending ?? 0,
      AttendeeWaitingListCount: want.waiting ?? 0,
      AttendeeCancelledCount: want.cancelled ?? 0,
    };
    expect(await h.getEventDetails7({ eventId }, ctx), `event ${eventId}`).toMatchObject(counts);
    expect(await h.getEventDetails3({ eventId }, ctx), `event ${eventId}`).toMatchObject(counts);
    expect(
      calendar.Events.find((e) => e.EventId === eventId)?.NumAttendees,
      `event ${eventId}`,
    ).toBe(counts.AttendeeCount);
    for (const t of (await h.getAttendeeTypes({ eventId }, ctx)).flatMap((a) => a.TicketTypes))
      expect(t.AttendeeCount, `ticket type ${t.TicketTypeId}`).toBe(liveTicket.get(t.TicketTypeId));
  }
}

describe('attendee counts', () => {
  it('migration 2 back-fills the counts of a database seeded before it', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    );
    db.exec(MIGRATIONS[0] as string);
    db.prepare("INSERT INTO schema_migrations VALUES (1, '2026-01-01')").run();
    seed(db, { events: 8, bookings: 600 });
    db.prepare(
      'UPDATE attendee SET status_id = (SELECT id FROM attendee_status s WHERE s.event_id = (SELECT event_id FROM attendee_status WHERE id = attendee.status_id) AND s.status_type = ?) WHERE id % 7 = 0',
    ).run('Waiting');
    expect(migrate(db)).toEqual(MIGRATIONS.map((_, i) => i + 1).slice(1));
    expect(
      db
        .prepare("SELECT count(*) FROM event_attendee_count WHERE status_type = 'Waiting'")
        .pluck()
        .get(),
    ).toBeGreaterThan(0);
    expectCountsLive(db);
  });

  it('follow bookings, CancelAttendee and CancelBooking made through this and another connection', async () => {
    const path = join(dir, 'two.sqlite');
    const a = openDatabase(path);
    const b = openDatabase(path);
    try {
      seed(a, { events: 6, bookings: 300 });
      const [ha, hb] = [
        referenceHandlers(new SqliteStore(a)),
        referenceHandlers(new SqliteStore(b)),
      ];
      await expectHandlersLive(a, ha);
      const ticket = a
        .prepare(
          'SELECT l.ticket_type_id, l.attendee_type_id FROM ticket_type_attendee_type l JOIN ticket_type t ON t.id = l.ticket_type_id WHERE t.event_id = 2 ORDER BY 1 LIMIT 1',
        )
        .get() as { ticket_type_id: number; attendee_type_id: number };
      const book = (h: ServiceHandlers, bookingStatusId: number, contactId: number) =>
        h.submitSimpleBookingWithBookingStatus(
          {
            eventId: 2,
            attendeeTypeId: ticket.attendee_type_id,
            ticketTypeId: ticket.ticket_type_id,
            bookingStatusId,
            contactId,
          },
          ctx,
        );
      const made = [];
      for (const [i, status] of [1, 4, 3, 1, 2].entries())
        made.push(await book(i % 2 ? hb : ha, status, i + 1));
      await expectHandlersLive(a, ha);
      await expectHandlersLive(b, hb);

      const attendeeRef = (id: number) =>
        a.prepare('SELECT reference FROM attendee WHERE id = ?').pluck().get(id) as string;
      await hb.cancelAttendee({ attendeeReference: attendeeRef(made[0]!.AttendeeId) }, ctx);
      await expectHandlersLive(a, ha);
      await hb.cancelAttendee({ attendeeReference: attendeeRef(made[0]!.AttendeeId) }, ctx);
      await hb.cancelBooking({ bookingReference: made[1]!.BookingReference }, ctx);
      await ha.cancelBooking({ bookingReference: made[1]!.BookingReference }, ctx);
      const seeded = a
        .prepare(
          'SELECT b.reference FROM booking b WHERE b.event_id = 3 AND (SELECT count(*) FROM attendee WHERE booking_id = b.id) > 1 LIMIT 1',
        )
        .pluck()
        .get() as string;
      await ha.cancelBooking({ bookingReference: seeded }, ctx);
      await expectHandlersLive(a, ha);
      await expectHandlersLive(b, hb);
      expectCountsLive(b);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a cancelled attendee frees its place for the capacity check', async () => {
    const db = openDatabase(':memory:');
    seed(db, { events: 3, bookings: 30 });
    const h = referenceHandlers(new SqliteStore(db));
    const attendeeTypeId = db
      .prepare("SELECT id FROM attendee_type WHERE event_id = 1 AND name = 'Delegate'")
      .pluck()
      .get() as number;
    const ticketTypeId = Number(
      db
        .prepare(
          "INSERT INTO ticket_type (event_id, name, capacity, gross_price_e5, tax_rate_e5, days_valid, is_open, available_from, available_to, min_age, external_site) VALUES (1, 'Two seats', 2, 1200000, 20000, NULL, 1, '2026-01-01T00:00:00', '2027-01-01T00:00:00', 0, 0)",
        )
        .run().lastInsertRowid,
    );
    db.prepare(
      'INSERT INTO ticket_type_attendee_type (ticket_type_id, attendee_type_id) VALUES (?, ?)',
    ).run(ticketTypeId, attendeeTypeId);
    const book = async () =>
      h.submitSimpleBookingWithBookingStatus(
        { eventId: 1, attendeeTypeId, ticketTypeId, bookingStatusId: 1, contactId: 1 },
        ctx,
      );
    const first = await book();
    await book();
    await expect(book()).rejects.toMatchObject({ code: 'Conflict' });
    await h.cancelBooking({ bookingReference: first.BookingReference }, ctx);
    await book();
    await expect(book()).rejects.toMatchObject({ code: 'Conflict' });
    expectCountsLive(db);
  });

  it('stay exact after writes no handler makes: moves, retyped statuses, deletes, REPLACE', () => {
    const db = openDatabase(':memory:');
    seed(db, { events: 6, bookings: 300 });
    expectCountsLive(db);
    const booking = db
      .prepare(
        'SELECT b.id FROM booking b WHERE b.event_id = 1 AND (SELECT count(*) FROM attendee WHERE booking_id = b.id) > 1 LIMIT 1',
      )
      .pluck()
      .get() as number;
    db.prepare('UPDATE booking SET event_id = 2 WHERE id = ?').run(booking);
    expectCountsLive(db);
    db.prepare(
      "UPDATE attendee_status SET status_type = 'Waiting' WHERE event_id = 3 AND name = 'Attending'",
    ).run();
    expectCountsLive(db);
    db.prepare(
      'UPDATE attendee SET ticket_type_id = (SELECT id FROM ticket_type WHERE event_id = 4 ORDER BY id DESC LIMIT 1) WHERE id % 5 = 0 AND booking_id IN (SELECT id FROM booking WHERE event_id = 4)',
    ).run();
    expectCountsLive(db);
    const gone = db
      .prepare(
        'SELECT id FROM attendee WHERE is_lead = 0 AND id NOT IN (SELECT attendee_id FROM submission_author) LIMIT 3',
      )
      .pluck()
      .all() as number[];
    for (const t of ['attendee_day', 'attendee_custom_value', 'session_signup', 'reservation'])
      db.prepare(`DELETE FROM ${t} WHERE attendee_id IN (SELECT value FROM json_each(?))`).run(
        JSON.stringify(gone),
      );
    db.prepare('DELETE FROM attendee WHERE id IN (SELECT value FROM json_each(?))').run(
      JSON.stringify(gone),
    );
    expectCountsLive(db);
    const row = db
      .prepare('SELECT * FROM attendee WHERE id = (SELECT max(id) FROM attendee)')
      .get() as Record<string, unknown>;
    const cancelled = db
      .prepare(
        "SELECT s.id FROM attendee_status s JOIN attendee_status o ON o.event_id = s.event_id WHERE o.id = ? AND s.status_type = 'Cancelled'",
      )
      .pluck()
      .get(row.status_id);
    db.prepare(
      'INSERT OR REPLACE INTO attendee (id, booking_id, reference, contact_id, status_id, created, attendee_type_id, ticket_type_id, is_lead, attended) VALUES (@id, @booking_id, @reference, @contact_id, @status_id, @created, @attendee_type_id, @ticket_type_id, @is_lead, @attended)',
    ).run({ ...row, status_id: cancelled });
    expectCountsLive(db);
  });
});
