// The reset test control on PostgreSQL: the shared database goes back to the state it had when the
// first node with --test-controls started, for every node. Two nodes on one database, in this
// process: A seeds it and keeps the copy; B, started with controls after a booking was made,
// finds the copy there and does not take another. A reset through B removes bookings made on
// either node, as A's answers show; keys (the demo key and one created before) keep working;
// bookings and reads served by A while B resets are answered (no Internal), and the attendee
// counts stay those of the attendee rows.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ServiceError } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { createKey } from '../../src/reference/keys.js';
import { startReferenceService, type ReferenceService } from '../../src/reference/serve.js';
import { newDatabase, reader, type TestDatabase } from '../support/backend.js';
import { completeClient } from '../support/complete.js';

const TOKEN = 'reset-test-token-0123456789';
type Key = { apiKey: string; secretKey: string };

let database: TestDatabase;
let a: ReferenceService;
let b: ReferenceService | undefined;
let demo: Key;

const start = (workers: number) =>
  startReferenceService({
    database: database.target,
    port: 0,
    log: () => undefined,
    seed: { events: 4, bookings: 60 },
    workers,
    admin: { port: 0 },
    testControls: { token: TOKEN },
  });
const client = (node: ReferenceService, key: Key = demo) =>
  completeClient(new EventServiceClient({ baseUrl: node.server.url, ...key }));
const reset = async (node: ReferenceService) => {
  const res = await fetch(`${node.admin!.url}/controls/reset`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** What a reset must bring back: bookings, attendees and the counts the triggers keep. */
async function state(node: ReferenceService) {
  const { column } = reader(node.database);
  return {
    bookings: await column<number>('SELECT id FROM booking ORDER BY id'),
    attendees: await column<number>('SELECT count(*) FROM attendee'),
    counts: await node.database.query(
      'SELECT ticket_type_id, status_type, n FROM ticket_attendee_count WHERE n <> 0 ORDER BY 1, 2',
    ),
    eventCounts: await node.database.query(
      'SELECT event_id, status_type, n FROM event_attendee_count WHERE n <> 0 ORDER BY 1, 2',
    ),
  };
}

/** The counts as the attendee rows make them (what the triggers must keep). */
const countedFromRows = (node: ReferenceService) =>
  node.database.query(
    'SELECT a.ticket_type_id, s.status_type, count(*)::integer AS n FROM attendee a JOIN attendee_status s ON s.id = a.status_id GROUP BY 1, 2 ORDER BY 1, 2',
  );

async function book(node: ReferenceService) {
  const t = await reader(node.database).one<{
    id: number;
    event_id: number;
    attendee_type_id: number;
  }>(
    'SELECT t.id, t.event_id, l.attendee_type_id FROM ticket_type t JOIN ticket_type_attendee_type l ON l.ticket_type_id = t.id ORDER BY t.id LIMIT 1',
  );
  return client(node).submitSimpleBookingWithBookingStatus({
    eventId: t.event_id,
    attendeeTypeId: t.attendee_type_id,
    ticketTypeId: t.id,
    bookingStatusId: 1,
    contactId: 1,
  });
}

/** A call's fault code, or what else it threw. */
const outcomeOf = (e: unknown): string =>
  e instanceof ServiceError ? (e as ServiceError).code : String(e);

let initial: Awaited<ReturnType<typeof state>>;
let made: number[];
let partner: Key;

beforeAll(async () => {
  database = await newDatabase();
  a = await start(1);
  demo = a.demoKey!;
  initial = await state(a);
  partner = await a.database.run(createKey('partner'));
  made = [(await book(a)).BookingId];
  b = await start(0); // the copy is there: B keeps A's
  made.push((await book(b)).BookingId);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await database.remove();
});

it('a reset on one node brings back the state at the first start, and the other node serves it', async () => {
  expect((await state(a)).bookings).toEqual([...initial.bookings, ...made]);
  expect(await reset(b!)).toMatchObject({ status: 200, body: { reset: true } });
  expect(await state(a)).toEqual(initial);
  for (const bookingId of made) {
    const e = await client(a)
      .getBookingDetails({ bookingId })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).code).not.toBe('Internal');
  }
  // Keys outlive the reset, on both nodes: the demo key and one created before.
  for (const node of [a, b!])
    for (const key of [demo, partner])
      expect((await client(node, key).getShows()).length).toBeGreaterThan(0);
  // New bookings take the ids the first ones took (identities restarted).
  expect((await book(a)).BookingId).toBe(made[0]);
});

it('while nodes serve: bookings and reads are answered, and counts stay those of the rows', async () => {
  const load = Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      (i % 2 ? book(a) : client(a).getShows()).then(() => 'ok', outcomeOf),
    ),
  );
  const during = await reset(b!);
  const outcomes = await load;
  expect(during.status).toBe(200);
  for (const o of outcomes) expect(['ok', 'Conflict', 'Unavailable']).toContain(o);
  expect((await state(a)).counts).toEqual(await countedFromRows(a));
  expect(await reset(a)).toMatchObject({ status: 200 });
  expect(await state(b!)).toEqual(initial);
}, 60_000);
