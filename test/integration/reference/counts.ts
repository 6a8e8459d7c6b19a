// The attendee counts (SQLite's migration 2, PostgreSQL's triggers) against the rows they count,
// for the tests of either database: the stored counts equal the GROUP BYs they replace, and what
// the handlers show equals counts taken from the rows.
import { expect } from 'vitest';
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { ReferenceDatabase } from '../../../src/reference/database.js';
import {
  LIVE_EVENT_COUNTS,
  LIVE_TICKET_COUNTS,
} from '../../../src/reference/sqlite/attendee-counts.js';
import { reader } from '../../support/backend.js';

export const ctx = {
  apiKey: 'test',
  apiKeyName: 'test',
  operation: 'test',
  binding: 'soap11',
} as const;
type Count = { id: number; status_type: string; n: number };

export async function expectCountsLive(db: ReferenceDatabase): Promise<void> {
  const stored = (sql: string) => db.query<Count>(sql);
  expect(
    await stored(
      'SELECT event_id AS id, status_type, n FROM event_attendee_count WHERE n <> 0 ORDER BY 1, 2',
    ),
  ).toEqual(await stored(LIVE_EVENT_COUNTS.replace('b.event_id,', 'b.event_id AS id,')));
  expect(
    await stored(
      'SELECT ticket_type_id AS id, status_type, n FROM ticket_attendee_count WHERE n <> 0 ORDER BY 1, 2',
    ),
  ).toEqual(
    await stored(LIVE_TICKET_COUNTS.replace('a.ticket_type_id,', 'a.ticket_type_id AS id,')),
  );
  expect(await reader(db).value('SELECT count(*) FROM event_attendee_count WHERE n < 0')).toBe(0);
}

/** What GetEventDetails, the calendar and GetAttendeeTypes say, against counts taken from the rows. */
export async function expectHandlersLive(db: ReferenceDatabase, h: ServiceHandlers): Promise<void> {
  const { one, value, column } = reader(db);
  const calendar = await h.getCalendarEventsByDateRange(
    { fromDate: '2000-01-01T00:00:00', toDate: '2100-01-01T00:00:00', includeArchived: true },
    ctx,
  );
  for (const eventId of await column<number>('SELECT id FROM event ORDER BY id')) {
    const counts = await one<Record<string, number>>(
      `SELECT count(*) FILTER (WHERE s.status_type = 'Attending') AS "AttendeeCount",
        count(*) FILTER (WHERE s.status_type = 'Waiting') AS "AttendeeWaitingListCount",
        count(*) FILTER (WHERE s.status_type = 'Cancelled') AS "AttendeeCancelledCount"
       FROM attendee a JOIN attendee_status s ON s.id = a.status_id JOIN booking b ON b.id = a.booking_id WHERE b.event_id = ?`,
      eventId,
    );
    expect(await h.getEventDetails7({ eventId }, ctx), `event ${eventId}`).toMatchObject(counts);
    expect(await h.getEventDetails3({ eventId }, ctx), `event ${eventId}`).toMatchObject(counts);
    expect(
      calendar.Events.find((e) => e.EventId === eventId)?.NumAttendees,
      `event ${eventId}`,
    ).toBe(counts.AttendeeCount);
    for (const t of (await h.getAttendeeTypes({ eventId }, ctx)).flatMap((a) => a.TicketTypes))
      expect(t.AttendeeCount, `ticket type ${t.TicketTypeId}`).toBe(
        await value(
          "SELECT count(*) FROM attendee a JOIN attendee_status s ON s.id = a.status_id WHERE a.ticket_type_id = ? AND s.status_type <> 'Cancelled'",
          t.TicketTypeId,
        ),
      );
  }
}
