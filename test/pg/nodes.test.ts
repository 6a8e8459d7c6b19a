// Several nodes, one PostgreSQL database: each node a plain `evgen serve --db <url>` process on its
// own port. Start-up together (migrated and seeded once), capacity atomic across nodes, a
// single-use token used once across nodes, and keys shared through the database.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceError } from '@evgen/runtime';
import { BINDING_IDS, type BindingId } from '@evgen/event-management/service';
import { EventServiceClient } from '@evgen/event-management/client';
import { POSTGRES_MIGRATIONS } from '../../src/reference/pg/schema.js';
import { createToken } from '../../src/reference/tokens.js';
import { newDatabase, reader, withDatabase, type TestDatabase } from '../support/backend.js';
import { limitedTicketType } from '../integration/reference/harness.js';
import { BIN, serve, stop, type ServeProcess } from '../integration/reference/serve-process.js';
import { completeClient } from '../support/complete.js';

const BINDINGS = BINDING_IDS;
type Key = { apiKey: string; secretKey: string };

let database: TestDatabase;
let nodes: ServeProcess[];
let urls: string[];
let key: Key;
const client = (node: number, binding: BindingId = BINDING_IDS[0], k: Key = key) =>
  completeClient(new EventServiceClient({ baseUrl: urls[node]!, ...k, binding }));

beforeAll(async () => {
  database = await newDatabase();
  // Started at the same moment on a new database: each migrates and seeds unless another has.
  // On the request loop (--workers 0) a node runs every request it has at once, up to its pool
  // of 16 connections: the most transactions in flight together, the hardest test of the locks.
  nodes = [0, 1].map(() => serve(database.target, '--workers', '0'));
  const ready = await Promise.all(nodes.map((n) => n.ready));
  urls = ready.map((r) => r.url);
  const keys = ready.flatMap((r) => (r.key ? [r.key] : []));
  expect(keys, 'exactly one node seeded the database').toHaveLength(1);
  key = keys[0]!;
}, 120_000);
afterAll(async () => {
  await Promise.all(nodes.map(stop));
  await database.remove();
});

describe('nodes on one PostgreSQL database', () => {
  it('started together: the schema migrated once, the data seeded once, both serve', async () => {
    await withDatabase(database.target, async (db) => {
      const { column, value } = reader(db);
      expect(await column('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
        POSTGRES_MIGRATIONS.map((_, i) => i + 1),
      );
      expect(await value('SELECT count(*) FROM event')).toBe(36);
      expect(await value("SELECT count(*) FROM api_key WHERE name = 'demo'")).toBe(1);
    });
    for (const [i, url] of urls.entries()) {
      expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({
        status: 'ok',
        database: 'ok',
      });
      expect((await client(i).getEventDetails7({ eventId: 1 })).EventId).toBe(1);
    }
  });

  it('2 nodes × 50 simultaneous bookings on 30 places: exactly 30 succeed, 70 are Conflict', async () => {
    const { attendeeTypeId, ticketTypeId, before } = await withDatabase(
      database.target,
      async (db) => ({
        ...(await limitedTicketType(db, 5, 30)),
        before: await reader(db).value<number>('SELECT count(*) FROM booking'),
      }),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        client(i % 2, BINDINGS[(i >> 1) % BINDINGS.length]).submitSimpleBookingWithBookingStatus({
          eventId: 5,
          attendeeTypeId,
          ticketTypeId,
          bookingStatusId: 1,
          contactId: 1 + (i % 40),
        }),
      ),
    );
    const refused = results.flatMap((r) =>
      r.status === 'rejected' ? [r.reason as ServiceError] : [],
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
    expect(refused).toHaveLength(70);
    for (const e of refused) expect(e.code).toBe('Conflict');
    await withDatabase(database.target, async (db) => {
      const { value } = reader(db);
      expect(await value('SELECT count(*) FROM booking')).toBe(before + 30);
      expect(
        await value('SELECT count(*) FROM attendee WHERE ticket_type_id = ?', ticketTypeId),
      ).toBe(30);
    });
    for (const node of [0, 1]) {
      const types = await client(node).getAttendeeTypes({ eventId: 5 });
      expect(
        types.flatMap((t) => t.TicketTypes).find((t) => t.TicketTypeId === ticketTypeId),
      ).toMatchObject({ Capacity: 30, AttendeeCount: 30 });
    }
  }, 60_000);

  it('a single-use token verified on both nodes at once works exactly once', async () => {
    const { token } = await withDatabase(database.target, (db) =>
      db.run(createToken({ contactId: 3, singleUse: true })),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        client(i % 2).verifyTokenForContact({
          tokenType: 'ContactRegistration',
          tokenValue: token,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected')
        expect(r.reason).toMatchObject({
          code: 'NotFound',
          faultString: expect.stringContaining('already used') as string,
        });
  });

  it('a key created or revoked through the database is seen by every node', async () => {
    const evgen = async (...args: string[]) =>
      (await promisify(execFile)('node', [BIN, ...args, '--db', database.target])).stdout;
    const issued = JSON.parse(await evgen('keys', 'create', '--name', 'shared', '--json')) as Key;
    for (const node of [0, 1])
      expect((await client(node, 'httpGet', issued).getShows()).length).toBeGreaterThan(0);
    await evgen('keys', 'revoke', issued.apiKey);
    for (const node of [0, 1])
      await expect(client(node, 'soap12', issued).getShows()).rejects.toMatchObject({
        code: 'AuthenticationFailed',
      });
  }, 60_000);
});
