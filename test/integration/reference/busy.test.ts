// A write that waits past SQLite's busy time-out for another connection's lock (another process
// on the same file, a long booking) is answered Unavailable, which says "nothing was done, come
// back" (503, Retry-After), not Internal; reads go on meanwhile (WAL), and the write succeeds once
// the lock is free.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, ServiceFault } from '@evgen/runtime';
import { openDatabase, type Db } from '../../../src/reference/sqlite/open.js';
import { SqliteStore } from '../../../src/reference/sqlite/store.js';
import { referenceHandlers } from '../../../src/reference/handlers/index.js';
import { prepareDatabase } from '../../../src/reference/sqlite/startup.js';
import { startReference } from './harness.js';

const ctx = { apiKey: 'k', apiKeyName: 'k', operation: 'test', binding: 'soap11' } as const;
let dir: string;
let path: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-busy-'));
  path = join(dir, 'busy.sqlite');
  prepareDatabase(path, { seed: { events: 1, bookings: 20 } });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `fn` while another connection holds the write lock of `file`. */
async function whileLocked<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const holder = openDatabase(file, { migrate: false });
  holder.exec('BEGIN IMMEDIATE');
  try {
    return await fn();
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
}

const unavailable = {
  code: 'Unavailable',
  message: expect.stringMatching(/^database busy: /) as string,
  cause: expect.objectContaining({ code: 'SQLITE_BUSY' }) as unknown,
};

describe('a write lock held past the busy time-out', () => {
  let db: Db;
  let store: SqliteStore;
  beforeAll(() => {
    db = openDatabase(path, { migrate: false });
    db.pragma('busy_timeout = 50'); // the service waits BUSY_TIMEOUT_MS; the test need not
    store = new SqliteStore(db);
  });
  afterAll(() => store.close());

  const h = () => referenceHandlers(store);
  const row = (sql: string) => db.prepare(sql).get() as Record<string, number | string>;
  const cases = [
    {
      given: 'SubmitSimpleBookingWithBookingStatus (a callback transaction)',
      call: () => {
        const t = row(
          'SELECT t.event_id AS eventId, t.id AS ticketTypeId, l.attendee_type_id AS attendeeTypeId FROM ticket_type t JOIN ticket_type_attendee_type l ON l.ticket_type_id = t.id LIMIT 1',
        );
        return h().submitSimpleBookingWithBookingStatus(
          {
            eventId: t.eventId as number,
            attendeeTypeId: t.attendeeTypeId as number,
            ticketTypeId: t.ticketTypeId as number,
            bookingStatusId: 1,
            contactId: 1,
          },
          ctx,
        );
      },
    },
    {
      given: 'CancelBooking (one write)',
      call: () => {
        const b = row('SELECT reference FROM booking ORDER BY id DESC LIMIT 1'); // not cancelled yet
        return h().cancelBooking({ bookingReference: b.reference as string }, ctx);
      },
    },
  ];
  for (const { given, call } of cases)
    it(`${given}: Unavailable while locked, reads go on, done once free`, async () => {
      await whileLocked(path, async () => {
        const e = await Promise.resolve(call()).catch((x: unknown) => x);
        expect(e).toBeInstanceOf(ServiceFault);
        expect(e).toMatchObject(unavailable);
        expect((await h().getEventDetails7({ eventId: 1 }, ctx)).EventId).toBe(1);
      });
      await expect(Promise.resolve(call())).resolves.not.toThrow();
    });
});

it('writes the driver error into the log line of the request it failed, never into the answer', async () => {
  // Before, the service dropped the cause from its log line: the operator saw a 503 and no why.
  const ref = await startReference({ events: 1, bookings: 20 }, { workers: 1 });
  try {
    const file = (ref.svc.target as { path: string }).path;
    const reference = await ref.value<string>('SELECT reference FROM booking LIMIT 1');
    const e = await whileLocked(file, () =>
      ref
        .client('httpPost')
        .cancelBooking({ bookingReference: reference })
        .catch((x: unknown) => x),
    );
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).faultString).toBe(
      'database busy: another connection held its lock too long',
    );
    const line = ref.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.operation === 'CancelBooking');
    expect(line).toMatchObject({
      status: 503,
      faultCode: 'Unavailable',
      error: { name: 'SqliteError', message: 'database is locked', code: 'SQLITE_BUSY' },
    });
    expect(line!.error).not.toHaveProperty('stack');
  } finally {
    await ref.stop();
  }
}, 60_000);
