// The same answers on both databases: a service on SQLite and one on PostgreSQL, seeded alike, are
// asked every operation over every binding, reads first and then writes, and answer alike, value
// for value (the generated client decodes both; a list out of order or a value read differently
// would show).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDING_IDS, type BindingId } from '@evgen/event-management/service';
import { EventServiceClient } from '@evgen/event-management/client';
import { OPERATION_NAMES, type OperationName } from '@evgen/event-management/types';
import { startReferenceService, type ReferenceService } from '../../src/reference/serve.js';
import { createToken } from '../../src/reference/tokens.js';
import { newDatabase, reader } from '../support/backend.js';

const SEED = { events: 12, bookings: 400 };
const BINDINGS = BINDING_IDS;

interface Side {
  readonly svc: ReferenceService;
  client(binding: BindingId): EventServiceClient;
}
let dir: string;
let sides: [Side, Side];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-same-'));
  const start = async (database: string): Promise<Side> => {
    const svc = await startReferenceService({
      database,
      port: 0,
      workers: 1,
      log: () => undefined,
      seed: SEED,
    });
    return {
      svc,
      client: (binding) =>
        new EventServiceClient({ baseUrl: svc.server.url, ...svc.demoKey!, binding }),
    };
  };
  sides = [await start(join(dir, 'events.sqlite')), await start((await newDatabase()).target)];
}, 120_000);
afterAll(async () => {
  for (const s of sides) await s.svc.close();
  await rm(dir, { recursive: true, force: true });
});

type Call = (c: EventServiceClient, side: Side) => Promise<unknown>;
const READS: [OperationName, Call][] = [
  ['GetAccommodation', (c) => c.getAccommodation({ eventId: 1 })],
  ['GetAttendeeTypes', (c) => c.getAttendeeTypes({ eventId: 1 })],
  ['GetBookableSessions', (c) => c.getBookableSessions({ eventId: 2 })],
  ['GetBookingDetails', (c) => c.getBookingDetails({ bookingId: 5 })],
  ['GetBooking', (c) => c.getBooking({ bookingId: 7 })],
  ['GetBookings', (c) => c.getBookings({ eventId: 1, skip: 3 })],
  ['GetBookingsBatch', (c) => c.getBookingsBatch({ eventId: 2, skip: 5, size: 40 })],
  ['GetExtBookings', (c) => c.getExtBookings({ eventId: 3, skip: 0 })],
  ['GetContact', (c) => c.getContact({ email: 'Demo@Example.com' })],
  ['GetContact2', (c) => c.getContact2({ emailAddress: 'demo@example.com' })],
  ['EventProfileSearch', (c) => c.eventProfileSearch({ searchQuery: 'DATA type:Webinar' })],
  [
    'EventProfileSearch',
    (c) => c.eventProfileSearch({ searchQuery: 'archived:false from:2026-03-01' }),
  ],
  ['GetShows', (c) => c.getShows()],
  ['GetEventDetails7', (c) => c.getEventDetails7({ eventId: 4 })],
  ['GetEventDetails3', (c) => c.getEventDetails3({ eventId: 6 })],
  ['GetContactEventHistory3', (c) => c.getContactEventHistory3({ email: 'demo@example.com' })],
  ['GetTicketTypesByRoadshowId', (c) => c.getTicketTypesByRoadshowId({ roadshowId: 1 })],
  ['GetSubmissionsForEvent2', (c) => c.getSubmissionsForEvent2({ eventId: 1, clientUserId: 1 })],
  [
    'GetCalendarEventsByDateRange',
    (c) =>
      c.getCalendarEventsByDateRange({
        fromDate: '2025-01-01T00:00:00',
        toDate: '2027-12-31T23:59:59',
        includeArchived: true,
      }),
  ],
  ['GetCalendarAttendeesForEvent', (c) => c.getCalendarAttendeesForEvent({ eventId: 2 })],
  [
    'GetEventsByContactId',
    (c) =>
      c.getEventsByContactId({ contactId: 1, includeArchived: true, isTestBookingForm: false }),
  ],
  ['GetSpeakersforSeries', (c) => c.getSpeakersforSeries({ seriesValue: 'Data Week' })],
  ['GetAttendeeStatuses', (c) => c.getAttendeeStatuses({ eventId: 1 })],
  ['GetCustomFields', (c) => c.getCustomFields({ eventId: 1 })],
  ['GetSubClientCompanyList', (c) => c.getSubClientCompanyList()],
];

/** A booking, its attendee and then the booking cancelled, and a token verified: in this order. */
const WRITES: [OperationName, Call][] = [
  [
    'SubmitSimpleBookingWithBookingStatus',
    async (c, side) => {
      const t = await reader(side.svc.database).one<{ ticket: number; type: number }>(
        'SELECT l.ticket_type_id AS ticket, l.attendee_type_id AS type FROM ticket_type_attendee_type l JOIN ticket_type t ON t.id = l.ticket_type_id WHERE t.event_id = 2 ORDER BY 1 LIMIT 1',
      );
      return c.submitSimpleBookingWithBookingStatus({
        eventId: 2,
        attendeeTypeId: t.type,
        ticketTypeId: t.ticket,
        bookingStatusId: 1,
        contactId: 2,
      });
    },
  ],
  [
    'CancelAttendee',
    async (c, side) => {
      const ref = await reader(side.svc.database).value<string>(
        'SELECT reference FROM attendee WHERE id = (SELECT max(id) FROM attendee)',
      );
      return c.cancelAttendee({ attendeeReference: ref });
    },
  ],
  [
    'CancelBooking',
    async (c, side) => {
      const ref = await reader(side.svc.database).value<string>(
        'SELECT reference FROM booking WHERE id = (SELECT max(id) FROM booking)',
      );
      return c.cancelBooking({ bookingReference: ref });
    },
  ],
  [
    'VerifyTokenForContact',
    async (c, side) => {
      const { token } = await side.svc.database.run(createToken({ contactId: 4, singleUse: true }));
      return c.verifyTokenForContact({ tokenType: 'ContactRegistration', tokenValue: token });
    },
  ],
];

/** The answer, or the fault's code and message: refusals must be alike too. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value }),
    (e: unknown) => ({ fault: e instanceof Error ? e.message : String(e) }),
  );

describe('SQLite and PostgreSQL answer alike', () => {
  it('covers every operation of the interface', () => {
    expect(new Set([...READS, ...WRITES].map(([name]) => name))).toEqual(new Set(OPERATION_NAMES));
  });

  it.each(BINDINGS)('over %s: every read, then every write', async (binding) => {
    for (const [name, call] of [...READS, ...WRITES]) {
      const answers = [];
      for (const side of sides) answers.push(await outcome(call(side.client(binding), side)));
      expect(answers[1], `${name} over ${binding}`).toEqual(answers[0]);
      expect(answers[0], `${name} over ${binding}`).toHaveProperty('value');
    }
  });

  it('refuses alike: unknown records, bad paging, bad search', async () => {
    const refusals: Call[] = [
      (c) => c.getBooking({ bookingId: 999_999 }),
      (c) => c.getBookingsBatch({ eventId: 1, skip: 0, size: 1001 }),
      (c) => c.getContact({ email: 'nobody@example.com' }),
      (c) => c.eventProfileSearch({ searchQuery: 'colour:red' }),
      (c) => c.cancelBooking({ bookingReference: "' OR 1=1 --" }),
    ];
    for (const call of refusals) {
      const answers = [];
      for (const side of sides) answers.push(await outcome(call(side.client('soap11'), side)));
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0]).toHaveProperty('fault');
    }
  });
});
