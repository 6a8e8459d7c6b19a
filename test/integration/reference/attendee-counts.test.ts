// The attendee counts always equal the GROUP BYs over attendee they replace: after every write the
// service makes (from this or another connection), and after writes no handler makes. The handlers
// that show counts are checked against the live rows too. On both databases (SQLite's triggers of
// migration 2, PostgreSQL's statement triggers); SQLite's back-fill: attendee-counts-migration.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceHandlers } from '@evgen/event-management/server';
import {
  databaseTarget,
  openReferenceDatabase,
  openStore,
  seedDatabase,
  type ReferenceDatabase,
} from '../../../src/reference/database.js';
import { referenceHandlers } from '../../../src/reference/handlers/index.js';
import type { ReferenceStore } from '../../../src/reference/store/store.js';
import { BACKEND, newDatabase, reader, type TestDatabase } from '../../support/backend.js';
import { ctx, expectCountsLive, expectHandlersLive } from './counts.js';
import { limitedTicketType } from './harness.js';

const opened: { close(): Promise<void> }[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  for (const d of databases.splice(0)) await d.remove();
});

/** A seeded database: a handle for checks, and `stores` stores (connections) on it. */
async function seeded(
  seed: { events: number; bookings: number },
  stores = 1,
): Promise<{ db: ReferenceDatabase; stores: ReferenceStore[] }> {
  const database = await newDatabase();
  databases.push(database);
  const target = databaseTarget(database.target);
  await seedDatabase(target, seed);
  const db = await openReferenceDatabase(target, { migrate: false });
  const all = Array.from({ length: stores }, () =>
    openStore(target, { readOnly: false, poolSize: 2 }),
  );
  opened.push(...all, db);
  return { db, stores: all };
}

describe('attendee counts', () => {
  it('follow bookings, CancelAttendee and CancelBooking made through this and another connection', async () => {
    const { db, stores } = await seeded({ events: 6, bookings: 300 }, 2);
    const { one, value } = reader(db);
    const [ha, hb] = stores.map(referenceHandlers) as [ServiceHandlers, ServiceHandlers];
    await expectHandlersLive(db, ha);
    const ticket = await one<{ ticket_type_id: number; attendee_type_id: number }>(
      'SELECT l.ticket_type_id, l.attendee_type_id FROM ticket_type_attendee_type l JOIN ticket_type t ON t.id = l.ticket_type_id WHERE t.event_id = 2 ORDER BY 1 LIMIT 1',
    );
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
    await expectHandlersLive(db, ha);
    await expectHandlersLive(db, hb);

    const attendeeRef = (id: number) =>
      value<string>('SELECT reference FROM attendee WHERE id = ?', id);
    await hb.cancelAttendee({ attendeeReference: await attendeeRef(made[0]!.AttendeeId) }, ctx);
    await expectHandlersLive(db, ha);
    await hb.cancelAttendee({ attendeeReference: await attendeeRef(made[0]!.AttendeeId) }, ctx);
    await hb.cancelBooking({ bookingReference: made[1]!.BookingReference }, ctx);
    await ha.cancelBooking({ bookingReference: made[1]!.BookingReference }, ctx);
    const seededRef = await value<string>(
      'SELECT b.reference FROM booking b WHERE b.event_id = 3 AND (SELECT count(*) FROM attendee WHERE booking_id = b.id) > 1 ORDER BY b.id LIMIT 1',
    );
    await ha.cancelBooking({ bookingReference: seededRef }, ctx);
    await expectHandlersLive(db, ha);
    await expectHandlersLive(db, hb);
    await expectCountsLive(db);
  });

  it('a cancelled attendee frees its place for the capacity check', async () => {
    const { db, stores } = await seeded({ events: 3, bookings: 30 });
    const h = referenceHandlers(stores[0]!);
    const { attendeeTypeId, ticketTypeId } = await limitedTicketType(db, 1, 2);
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
    await expectCountsLive(db);
  });

  it('stay exact after writes no handler makes: moves, retyped statuses, deletes, replaced rows', async () => {
    const { db } = await seeded({ events: 6, bookings: 300 });
    const { one, value, column } = reader(db);
    await expectCountsLive(db);
    const booking = await value<number>(
      'SELECT b.id FROM booking b WHERE b.event_id = 1 AND (SELECT count(*) FROM attendee WHERE booking_id = b.id) > 1 ORDER BY b.id LIMIT 1',
    );
    await db.query('UPDATE booking SET event_id = 2 WHERE id = ?', booking);
    await expectCountsLive(db);
    await db.query(
      "UPDATE attendee_status SET status_type = 'Waiting' WHERE event_id = 3 AND name = 'Attending'",
    );
    await expectCountsLive(db);
    await db.query(
      'UPDATE attendee SET ticket_type_id = (SELECT id FROM ticket_type WHERE event_id = 4 ORDER BY id DESC LIMIT 1) WHERE id % 5 = 0 AND booking_id IN (SELECT id FROM booking WHERE event_id = 4)',
    );
    await expectCountsLive(db);
    const gone = await column<number>(
      'SELECT id FROM attendee WHERE is_lead = 0 AND id NOT IN (SELECT attendee_id FROM submission_author) ORDER BY id LIMIT 3',
    );
    const ids = gone.map((id) => Number(id)).join(', ');
    for (const t of ['attendee_day', 'attendee_custom_value', 'session_signup', 'reservation'])
      await db.query(`DELETE FROM ${t} WHERE attendee_id IN (${ids})`);
    await db.query(`DELETE FROM attendee WHERE id IN (${ids})`);
    await expectCountsLive(db);
    const row = await one<Record<string, unknown>>(
      'SELECT * FROM attendee WHERE id = (SELECT max(id) FROM attendee)',
    );
    const cancelled = await value<number>(
      "SELECT s.id FROM attendee_status s JOIN attendee_status o ON o.event_id = s.event_id WHERE o.id = ? AND s.status_type = 'Cancelled'",
      row.status_id,
    );
    const columns = Object.keys(row);
    const values = columns.map((c) => (c === 'status_id' ? cancelled : row[c]));
    // A row written again whole: SQLite's REPLACE deletes and inserts (recursive triggers count
    // the delete); PostgreSQL has no REPLACE, its upsert updates.
    const insert = `INTO attendee (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    await db.query(
      BACKEND === 'sqlite'
        ? `INSERT OR REPLACE ${insert}`
        : `INSERT ${insert} ON CONFLICT (id) DO UPDATE SET status_id = excluded.status_id`,
      ...values,
    );
    await expectCountsLive(db);
  });
});
