// Figures of the reference service at size (issue 13): page cost on 3,000 against 100,000
// bookings, a 1,000-booking page over HTTP, the small call's latency while four clients pull
// pages (on the request loop before, on worker threads after), and how long a body of 88,000
// distinct names takes to be refused.
import { join } from 'node:path';
import type { ServiceHandler } from '@evgen/runtime';
import { databaseTarget, runOnSqlite } from '../reference/database.js';
import { openDatabase } from '../reference/sqlite/open.js';
import { createKey } from '../reference/keys.js';
import { POOL_INLINE } from '../reference/serve.js';
import { createReferenceHandler } from '../reference/service.js';
import { prepareDatabase } from '../reference/sqlite/startup.js';
import { startServer } from './children.js';
import { load, type Key } from './load.js';
import { median } from './measure.js';
import { increasingTimestamps, signTemplate, soapHeaders, soapTemplate } from './soap.js';

const PATH = '/API/1_0/SOAP/ServiceAPI.asmx';
export const NS = 'https://bench.local/API/1_0/SOAP/';

export interface PageCost {
  readonly bookings: number;
  /** Server-side (request bytes in, response bytes out, no HTTP), median ms. */
  readonly batch100Ms: number;
  readonly page1000Ms: number;
}

export interface SmallUnderLoad {
  readonly workers: number;
  readonly p50: number;
  readonly p99: number;
  readonly calls: number;
  readonly pagesPerSec: number;
}

const nextTimestamp = increasingTimestamps();
/** A signed SOAP 1.1 request for `operation` (strictly increasing timestamps). */
export function soapRequest(key: Key, ns: string, operation: string, params: string) {
  const body = signTemplate(soapTemplate(ns, operation, params), operation, key, nextTimestamp());
  return { body, headers: soapHeaders(ns, operation) };
}

/** A database of `bookings` bookings on 2 events, and a key for it. */
export function seededDatabase(dir: string, bookings: number): { dbPath: string; key: Key } {
  const dbPath = join(dir, `bench-${bookings}.sqlite`);
  prepareDatabase(dbPath, { seed: { events: 2, bookings } });
  const db = openDatabase(dbPath);
  const key = runOnSqlite(db, createKey('bench'));
  db.close();
  return { dbPath, key };
}

/** Milliseconds from sending the request to the last byte of a 200 answer. */
async function timedPost(
  url: string,
  r: { body: string; headers: Record<string, string> },
  what: string,
): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}${PATH}`, { method: 'POST', headers: r.headers, body: r.body });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status}`);
  return performance.now() - t;
}

/**
 * The reference service in this thread, as the bench measures it without HTTP: replay record on,
 * no test forms, nothing logged; `poolSize` connections (inline or one worker's).
 */
export const benchService = (dbPath: string, poolSize: number) =>
  createReferenceHandler(
    {
      database: databaseTarget(dbPath),
      readOnly: false,
      poolSize,
      replay: 'database',
      readCache: true,
      testForms: false,
      cors: [],
    },
    () => undefined,
  );

type SignedRequest = { body: string; headers: Record<string, string> };

/** One call through the whole service, without HTTP: milliseconds to its 200 answer. */
export async function timeCall(
  handler: ServiceHandler,
  r: SignedRequest,
  what = 'page cost',
): Promise<number> {
  const body = new TextEncoder().encode(r.body);
  const t = performance.now();
  const res = await handler({
    method: 'POST',
    url: PATH,
    headers: { ...r.headers, host: 'bench.local' },
    body,
  });
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status}`);
  return performance.now() - t;
}

/**
 * Median ms of each maker's calls, taken in turns (one call of each, `runs` times, after two
 * turns not counted): the first database measured does not pay for the process's warm-up, and a
 * slow spell of the machine falls on both.
 */
export async function timeInTurns(
  makers: readonly { handler: ServiceHandler; make: () => SignedRequest }[],
  runs: number,
): Promise<number[]> {
  const times: number[][] = makers.map(() => []);
  for (let i = 0; i < runs + 2; i++) {
    for (const [m, { handler, make }] of makers.entries()) {
      const ms = await timeCall(handler, make());
      if (i >= 2) times[m]!.push(ms);
    }
  }
  return times.map(median);
}

/**
 * GetBookingsBatch(100) and GetBookings (1,000) through the whole service, without HTTP, on
 * each database: a full page from the middle of event 1's bookings, the databases in turns.
 */
export async function pageCosts(
  dbs: readonly { dbPath: string; key: Key; bookings: number }[],
  quick: boolean,
): Promise<PageCost[]> {
  const services = dbs.map((db) => benchService(db.dbPath, POOL_INLINE));
  try {
    const calls = dbs.map((db, i) => {
      const skip = Math.max(0, Math.floor(bookingsInEvent1(db.dbPath) / 2) - 500);
      const handler = services[i]!.handler;
      const call = (op: string, params: string) => ({
        handler,
        make: () => soapRequest(db.key, NS, op, params),
      });
      return {
        batch: call('GetBookingsBatch', `<eventId>1</eventId><skip>${skip}</skip><size>100</size>`),
        page: call('GetBookings', `<eventId>1</eventId><skip>${skip}</skip>`),
      };
    });
    const batch = await timeInTurns(
      calls.map((c) => c.batch),
      quick ? 10 : 30,
    );
    const page = await timeInTurns(
      calls.map((c) => c.page),
      quick ? 4 : 12,
    );
    return dbs.map((db, i) => ({
      bookings: db.bookings,
      batch100Ms: batch[i]!,
      page1000Ms: page[i]!,
    }));
  } finally {
    await Promise.all(services.map((s) => s.close()));
  }
}

function bookingsInEvent1(dbPath: string): number {
  const db = openDatabase(dbPath, { migrate: false, readOnly: true });
  try {
    return db.prepare('SELECT count(*) FROM booking WHERE event_id = 1').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** GetBookings (1,000 bookings) through a served process over HTTP, sequentially: median ms. */
export async function pageOverHttp(
  db: { dbPath: string },
  workers: number,
  quick: boolean,
): Promise<number> {
  const server = await startServer({
    type: 'start',
    kind: 'ours',
    database: db.dbPath,
    keys: 1,
    workers,
  });
  try {
    const key = server.info.keys[0]!;
    const times: number[] = [];
    for (let i = 0; i < (quick ? 5 : 15); i++) {
      const r = soapRequest(
        key,
        server.info.ns,
        'GetBookings',
        '<eventId>1</eventId><skip>1000</skip>',
      );
      const ms = await timedPost(server.info.url, r, 'GetBookings over HTTP');
      if (i >= 2) times.push(ms);
    }
    return median(times);
  } finally {
    await server.stop();
  }
}

/**
 * GetEventDetails7 latency from one client (sequential calls) while four connections pull
 * 1,000-booking pages continuously (autocannon in its own process).
 */
export async function smallUnderLoad(
  db: { dbPath: string },
  workers: number,
  seconds: number,
): Promise<SmallUnderLoad> {
  const server = await startServer({
    type: 'start',
    kind: 'ours',
    database: db.dbPath,
    keys: 2,
    workers,
  });
  try {
    const [pageKey, smallKey] = server.info.keys as [Key, Key];
    const template = soapTemplate(
      server.info.ns,
      'GetBookings',
      '<eventId>1</eventId><skip>1000</skip>',
    );
    const pages = load(
      {
        url: server.info.url,
        path: PATH,
        headers: soapHeaders(server.info.ns, 'GetBookings'),
        body: template,
        operation: 'GetBookings',
        keys: [pageKey],
        connections: 4,
        duration: seconds,
      },
      'autocannon',
    );
    await new Promise((r) => setTimeout(r, 1000)); // the page load running
    const latencies: number[] = [];
    const end = Date.now() + (seconds - 2) * 1000;
    while (Date.now() < end) {
      const r = soapRequest(smallKey, server.info.ns, 'GetEventDetails7', '<eventId>1</eventId>');
      latencies.push(await timedPost(server.info.url, r, 'GetEventDetails7 under load'));
      await new Promise((r2) => setTimeout(r2, 5)); // a client calling now and then, not flooding
    }
    const figures = await pages;
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    return {
      workers,
      p50: at(0.5),
      p99: at(0.99),
      calls: latencies.length,
      pagesPerSec: figures.rps,
    };
  } finally {
    await server.stop();
  }
}

/** Time to refuse a 0.87 MB body of 88,000 distinct names with no AuthenticationHeader (median). */
export async function manyNamesRefusal(db: { dbPath: string }, quick: boolean): Promise<number> {
  const server = await startServer({ type: 'start', kind: 'ours', database: db.dbPath, keys: 1 });
  try {
    const times: number[] = [];
    for (let i = 0; i < (quick ? 5 : 15); i++) {
      // Fresh names each time, so the reader's name cache never holds them.
      const names = Array.from({ length: 44_000 }, (_, k) => `<n${i}x${k} a${i}x${k}="1"/>`).join(
        '',
      );
      const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetEventDetails7 xmlns="${server.info.ns}">${names}</GetEventDetails7></soap:Body></soap:Envelope>`;
      const t = performance.now();
      const res = await fetch(`${server.info.url}${PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          soapaction: `"${server.info.ns}GetEventDetails7"`,
        },
        body,
      });
      await res.arrayBuffer();
      if (res.status === 200) throw new Error('a body of 88,000 names was answered 200');
      times.push(performance.now() - t);
    }
    return median(times);
  } finally {
    await server.stop();
  }
}
