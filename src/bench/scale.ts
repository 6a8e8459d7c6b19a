// Scaling out (issue 14), side by side in one run: GetEventDetails7 and GetBookingsBatch(100) at 32
// connections, and bookings with 8 concurrent writers, on 1 node on SQLite, 1 node on PostgreSQL
// and 2 nodes on one PostgreSQL database. Two nodes get a round-robin split of the load: each
// node's load generator holds half the connections (as a load balancer that deals connections in
// turn), writer w books through node w mod 2. The PostgreSQL server is the bench's own (a
// temporary folder, fsync on like SQLite's synchronous FULL), on the same machine: on 2 cores the
// nodes, the database and the load generators all share the same two, which the figures show.
import { join } from 'node:path';
import { EventServiceClient } from '@evgen/event-management/client';
import { databaseTarget, openReferenceDatabase } from '../reference/database.js';
import { PgCluster, postgresBin } from '../reference/pg/local-server.js';
import { startServer, withTempDir, type ServerChild } from './children.js';
import { load, type Key, type LoadFigures } from './load.js';
import { median } from './measure.js';
import { soapHeaders, soapTemplate } from './soap.js';

const PATH = '/API/1_0/SOAP/ServiceAPI.asmx';
const CONNECTIONS = 32;
const WRITERS = 8;

export const SETUPS = ['1 node SQLite', '1 node PostgreSQL', '2 nodes PostgreSQL'] as const;

export type Setup = (typeof SETUPS)[number];

export interface ReadFigures {
  readonly rps: number;
  /** The worst of the nodes' load generators, ms. */
  readonly p50: number;
  readonly p99: number;
  readonly bad: number;
}
export interface BookingFigures {
  readonly perSec: number;
  readonly p50: number;
  readonly p99: number;
  readonly refused: number;
}
export interface ScaleFigures {
  readonly reads: Record<string, Record<Setup, ReadFigures>>;
  readonly bookings: Record<Setup, BookingFigures>;
}

/**
 * The nodes of a setup, started one after the other (the first seeds a new database). Keys of
 * each node (wrk signs up to 250 s ahead of the clock, so no key serves two loads): 0-1 warm-up,
 * 2-3 the measured load, 4 the booking writers.
 */
async function startNodes(database: string, count: number): Promise<ServerChild[]> {
  const nodes: ServerChild[] = [];
  for (let i = 0; i < count; i++)
    nodes.push(await startServer({ type: 'start', kind: 'ours', database, keys: 5 }));
  return nodes;
}

/** Load split over the nodes: each gets connections / nodes, all at once; the rates add up. */
async function readLoad(
  nodes: readonly ServerChild[],
  op: string,
  params: string,
  duration: number,
): Promise<ReadFigures> {
  const run = (warmUp: boolean) =>
    Promise.all(
      nodes.map((n) =>
        load({
          url: n.info.url,
          path: PATH,
          headers: soapHeaders(n.info.ns, op),
          body: soapTemplate(n.info.ns, op, params),
          operation: op,
          keys: warmUp ? n.info.keys.slice(0, 2) : n.info.keys.slice(2, 4),
          connections: CONNECTIONS / nodes.length,
          duration: warmUp ? 1 : duration,
        }),
      ),
    );
  await run(true); // a second of warm-up, not measured
  const figures: LoadFigures[] = await run(false);
  return {
    rps: figures.reduce((a, f) => a + f.rps, 0),
    p50: Math.max(...figures.map((f) => f.p50)),
    p99: Math.max(...figures.map((f) => f.p99)),
    bad: figures.reduce((a, f) => a + f.non2xx + f.errors, 0),
  };
}

/** A ticket type without capacity limits, on an event without limits: every booking is accepted. */
async function unlimitedTicket(
  database: string,
): Promise<{ attendeeTypeId: number; ticketTypeId: number }> {
  const db = await openReferenceDatabase(databaseTarget(database), { migrate: false });
  try {
    await db.query('UPDATE event SET has_capacity_limits = 0 WHERE id = 1');
    const [type] = await db.query<{ id: number }>(
      "SELECT id FROM attendee_type WHERE event_id = 1 AND name = 'Delegate'",
    );
    const [ticket] = await db.query<{ id: number }>(
      "INSERT INTO ticket_type (event_id, name, capacity, gross_price_e5, tax_rate_e5, days_valid, is_open, available_from, available_to, min_age, external_site) VALUES (1, 'Bench', NULL, 1200000, 20000, NULL, 1, '2026-01-01T00:00:00', '2027-01-01T00:00:00', 0, 0) RETURNING id",
    );
    await db.query(
      'INSERT INTO ticket_type_attendee_type (ticket_type_id, attendee_type_id) VALUES (?, ?)',
      ticket!.id,
      type!.id,
    );
    return { attendeeTypeId: type!.id, ticketTypeId: ticket!.id };
  } finally {
    await db.close();
  }
}

/** WRITERS booking in a loop for `duration` s, writer w through node w mod nodes. */
async function bookingLoad(
  nodes: readonly ServerChild[],
  ticket: { attendeeTypeId: number; ticketTypeId: number },
  duration: number,
): Promise<BookingFigures> {
  const key = nodes[0]!.info.keys[4] as Key;
  const clients = nodes.map(
    (n) => new EventServiceClient({ baseUrl: n.info.url, ...key, timeoutMs: 30_000 }),
  );
  const run = async (seconds: number) => {
    const times: number[] = [];
    let refused = 0;
    const start = performance.now();
    const end = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; Date.now() < end; i++) {
          const t = performance.now();
          try {
            await clients[w % clients.length]!.submitSimpleBookingWithBookingStatus({
              eventId: 1,
              ...ticket,
              bookingStatusId: 1,
              contactId: 1 + ((w * 7 + i) % 40),
            });
            times.push(performance.now() - t);
          } catch {
            refused++;
          }
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    times.sort((a, b) => a - b);
    return {
      perSec: times.length / elapsed,
      p50: median(times),
      p99: times[Math.floor(times.length * 0.99)] ?? 0,
      refused,
    };
  };
  await run(1);
  return run(duration);
}

const READS: [string, string][] = [
  ['GetEventDetails7', '<eventId>1</eventId>'],
  ['GetBookingsBatch', '<eventId>1</eventId><skip>0</skip><size>100</size>'],
];

/** Every setup, each in fresh server processes; undefined when PostgreSQL is not installed. */
export async function benchScale(duration: number): Promise<ScaleFigures | undefined> {
  if (!postgresBin()) return undefined;
  return withTempDir('evgen-scale-', async (dir) => {
    const cluster = await PgCluster.start({ fsync: 'on' });
    try {
      const databases: Record<Setup, string> = {
        '1 node SQLite': join(dir, 'events.sqlite'),
        '1 node PostgreSQL': await cluster.createDatabase(),
        '2 nodes PostgreSQL': '',
      };
      databases['2 nodes PostgreSQL'] = databases['1 node PostgreSQL'];
      const nodesOf = (s: Setup) => startNodes(databases[s], s.startsWith('2') ? 2 : 1);
      const reads: ScaleFigures['reads'] = {};
      for (const [op, params] of READS) {
        const row = {} as Record<Setup, ReadFigures>;
        for (const s of SETUPS) {
          console.error(`  ${op}: ${s}…`);
          const nodes = await nodesOf(s);
          try {
            row[s] = await readLoad(nodes, op, params, duration);
          } finally {
            await Promise.all(nodes.map((n) => n.stop()));
          }
        }
        reads[op] = row;
      }
      const tickets = {
        sqlite: await unlimitedTicket(databases['1 node SQLite']),
        postgres: await unlimitedTicket(databases['1 node PostgreSQL']),
      };
      const bookings = {} as Record<Setup, BookingFigures>;
      for (const s of SETUPS) {
        console.error(`  bookings, ${WRITERS} writers: ${s}…`);
        const nodes = await nodesOf(s);
        try {
          bookings[s] = await bookingLoad(
            nodes,
            s.endsWith('SQLite') ? tickets.sqlite : tickets.postgres,
            duration,
          );
        } finally {
          await Promise.all(nodes.map((n) => n.stop()));
        }
      }
      return { reads, bookings };
    } finally {
      await cluster.stop();
    }
  });
}
