// Test controls on the admin listener: arming faults and delays for the next calls of an operation
// (for one API key or any), listing and clearing them, resetting the database; refused without the
// token (401) and absent without --test-controls (404), and nothing changes then. On both
// databases (the pg tier runs this file on PostgreSQL too); a --read-only SQLite file cannot be
// reset (501).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '@evgen/event-management/errors';
import { EventServiceClient } from '@evgen/event-management/client';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import { createKey } from '../../../src/reference/keys.js';
import { MAX_ARMED } from '../../../src/reference/ops/controls.js';
import { startReference, type Reference } from './harness.js';
import { BACKEND, newDatabase, type TestDatabase } from '../../support/backend.js';
import { databaseTarget, seedDatabase } from '../../../src/reference/database.js';
import { startReferenceService, type ReferenceService } from '../../../src/reference/serve.js';

const TOKEN = 'integration-token-0123456789';
const RETRY_AFTER = WIRE.faults.codes.find((c) => c.code === 'Unavailable')!.retryAfterSeconds;

/** A call to the admin listener, with the token unless `token` says otherwise (null: none). */
async function admin(
  ref: Pick<Reference, 'svc'>,
  method: string,
  path: string,
  body?: object,
  token: string | null = TOKEN,
) {
  const res = await fetch(`${ref.svc.admin!.url}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const armed = async (ref: Pick<Reference, 'svc'>) =>
  (await admin(ref, 'GET', '/controls')).body.armed;

/** A client of `binding` for a key of its own, recording the status of each attempt. */
function clientWithKey(
  ref: Reference,
  key: { apiKey: string; secretKey: string },
  binding: (typeof BINDING_IDS)[number],
) {
  const statuses: number[] = [];
  const client = new EventServiceClient({
    baseUrl: ref.svc.server.url,
    ...key,
    binding,
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 2_000 },
    onResponse: (r) => void statuses.push(r.status),
  });
  return { client, statuses };
}

describe.each([0, 2])('test controls with %i workers', (workers) => {
  let ref: Reference;
  beforeAll(async () => {
    ref = await startReference(
      { events: 3, bookings: 20 },
      { workers, admin: { port: 0 }, testControls: { token: TOKEN } },
    );
  });
  afterAll(() => ref?.stop());

  it('Unavailable forced twice: the client with retry succeeds on the third attempt, on every binding', async () => {
    const runs = await Promise.all(
      BINDING_IDS.map(async (binding) => {
        const key = await ref.svc.database.run(createKey(`ci-${binding}`));
        const armedNow = await admin(ref, 'POST', '/controls/faults', {
          operation: 'GetShows',
          fault: 'Unavailable',
          times: 2,
          apiKey: key.apiKey,
        });
        expect(armedNow.status).toBe(201);
        const { client, statuses } = clientWithKey(ref, key, binding);
        const started = Date.now();
        await client.getShows();
        return { binding, statuses, ms: Date.now() - started };
      }),
    );
    for (const r of runs) {
      expect([r.binding, r.statuses]).toEqual([r.binding, [503, 503, 200]]);
      expect(r.ms).toBeGreaterThanOrEqual(2 * RETRY_AFTER * 1000 - 50); // Retry-After was honoured
    }
    expect(await armed(ref)).toEqual([]);
  });

  it('takes exactly N calls, for any key when none is named, and lists what is left', async () => {
    await admin(ref, 'POST', '/controls/faults', {
      operation: 'GetShows',
      fault: 'Conflict',
      times: 3,
    });
    expect(await armed(ref)).toMatchObject([
      { operation: 'GetShows', fault: 'Conflict', remaining: 3 },
    ]);
    const c = ref.client();
    const outcomes = [];
    for (let i = 0; i < 5; i++)
      outcomes.push(
        await c.getShows().then(
          () => 'ok',
          (e: unknown) => (e instanceof ServiceError ? e.code : String(e)),
        ),
      );
    expect(outcomes).toEqual(['Conflict', 'Conflict', 'Conflict', 'ok', 'ok']);
    expect(await armed(ref)).toEqual([]);
  });

  it('an Internal fault says the request id, and no stack', async () => {
    await admin(ref, 'POST', '/controls/faults', { operation: 'GetShows', fault: 'Internal' });
    const e = await ref
      .client('httpGet')
      .getShows()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServiceError);
    const line = ref.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.faultCode === 'Internal');
    expect(line?.requestId).toEqual(expect.any(String));
    expect((e as ServiceError).faultString).toBe(
      `Internal error (request ${String(line?.requestId)})`,
    );
  });

  it('waits the delay asked, then serves the call', async () => {
    await admin(ref, 'POST', '/controls/faults', { operation: 'GetShows', delayMs: 300 });
    const started = Date.now();
    await ref.client().getShows();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('refuses what cannot be armed, and holds at most MAX_ARMED entries', async () => {
    for (const bad of [
      { fault: 'Unavailable' },
      { operation: 'DropTables', fault: 'Unavailable' },
      { operation: 'GetShows', fault: 'Teapot' },
      { operation: 'GetShows' },
      { operation: 'GetShows', delayMs: 3_600_000 },
      { operation: 'GetShows', fault: 'Conflict', times: 0 },
    ])
      expect(await admin(ref, 'POST', '/controls/faults', bad)).toMatchObject({ status: 400 });
    for (let i = 0; i < MAX_ARMED; i++)
      await admin(ref, 'POST', '/controls/faults', { operation: 'GetShows', delayMs: 1 });
    expect(
      await admin(ref, 'POST', '/controls/faults', { operation: 'GetShows', delayMs: 1 }),
    ).toMatchObject({
      status: 400,
    });
    expect(await admin(ref, 'DELETE', '/controls')).toEqual({
      status: 200,
      body: { cleared: MAX_ARMED },
    });
    expect(await armed(ref)).toEqual([]);
  });

  it('resets the database: a booking made before is gone after, keys and counts kept', async () => {
    const count = () => ref.value<number>('SELECT count(*) FROM booking');
    const counts = () =>
      ref.svc.database.query(
        'SELECT ticket_type_id, status_type, n FROM ticket_attendee_count WHERE n <> 0 ORDER BY 1, 2',
      );
    const before = Number(await count());
    const countsBefore = await counts();
    const key = await ref.svc.database.run(createKey('made before the reset'));
    const t = await ref.one<{ id: number; event_id: number; attendee_type_id: number }>(
      'SELECT t.id, t.event_id, l.attendee_type_id FROM ticket_type t JOIN ticket_type_attendee_type l ON l.ticket_type_id = t.id ORDER BY t.id LIMIT 1',
    );
    await ref.client().submitSimpleBookingWithBookingStatus({
      eventId: t.event_id,
      attendeeTypeId: t.attendee_type_id,
      ticketTypeId: t.id,
      bookingStatusId: 1,
      contactId: 1,
    });
    expect(Number(await count())).toBe(before + 1);
    expect(await counts()).not.toEqual(countsBefore);
    expect(await admin(ref, 'POST', '/controls/reset')).toMatchObject({ status: 200 });
    expect(Number(await count())).toBe(before);
    expect(await counts()).toEqual(countsBefore);
    await ref.client().getShows(); // the demo key survives, and the workers read on
    await clientWithKey(ref, key, BINDING_IDS[0]).client.getShows(); // so does a key made before
  });

  it('without the token (or with a wrong one) every control answers 401 and nothing changes', async () => {
    const before = Number(await ref.value<number>('SELECT count(*) FROM booking'));
    for (const token of [null, 'wrong-token-0123456789', ''])
      for (const [method, path, body] of [
        ['GET', '/controls'],
        ['DELETE', '/controls'],
        ['POST', '/controls/faults', { operation: 'GetShows', fault: 'Unavailable' }],
        ['POST', '/controls/reset'],
        ['GET', '/controls/elsewhere'],
      ] as const)
        expect([path, (await admin(ref, method, path, body, token)).status]).toEqual([path, 401]);
    expect(await armed(ref)).toEqual([]);
    expect(Number(await ref.value<number>('SELECT count(*) FROM booking'))).toBe(before);
  });
});

describe('without --test-controls', () => {
  let ref: Reference;
  beforeAll(async () => {
    ref = await startReference({ events: 2, bookings: 10 }, { workers: 0, admin: { port: 0 } });
  });
  afterAll(() => ref?.stop());

  it('every control endpoint answers 404, with the token too, and calls are served', async () => {
    for (const [method, path, body] of [
      ['GET', '/controls'],
      ['DELETE', '/controls'],
      ['POST', '/controls/faults', { operation: 'GetShows', fault: 'Unavailable' }],
      ['POST', '/controls/reset'],
    ] as const)
      expect([path, (await admin(ref, method, path, body)).status]).toEqual([path, 404]);
    await ref.client().getShows();
  });
});

describe.runIf(BACKEND === 'sqlite')('a --read-only service', () => {
  let db: TestDatabase;
  let svc: ReferenceService | undefined;
  beforeAll(async () => {
    db = await newDatabase();
    await seedDatabase(databaseTarget(db.target), { events: 1, bookings: 0 });
    svc = await startReferenceService({
      database: db.target,
      port: 0,
      log: () => undefined,
      readOnly: true,
      workers: 0,
      admin: { port: 0 },
      testControls: { token: TOKEN },
    });
  });
  afterAll(async () => {
    await svc?.close();
    await db.remove();
  });

  it('cannot reset its database: 501, and the other controls work', async () => {
    const ref = { svc: svc! };
    expect(await admin(ref, 'POST', '/controls/reset')).toMatchObject({ status: 501 });
    expect(await armed(ref)).toEqual([]);
  });
});

describe('start-up', () => {
  for (const [given, options, message] of [
    ['without an admin listener', { testControls: { token: TOKEN } }, /--admin-port/],
    ['with a short token', { admin: { port: 0 }, testControls: { token: 'short' } }, /at least 16/],
  ] as const)
    it(`refuses test controls ${given}`, async () => {
      await expect(startReference({ events: 1, bookings: 0 }, options)).rejects.toThrow(message);
    });
});
