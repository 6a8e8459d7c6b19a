// Worker threads: one per lane and per --workers, each answering whole requests; a worker that
// dies is logged and replaced, and the service keeps answering; /healthz says whether every lane
// has one.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseFault } from '@evgen/runtime/internal';
import { WIRE } from '@evgen/event-management/service';
import { laneOf, routeOf } from '../../../src/reference/lanes.js';
import {
  BULK_YOUNG_GENERATION_MB,
  MAX_QUEUED,
  WORKER_HEAP_MB,
} from '../../../src/reference/workers.js';
import { ENDPOINT, sign } from '../../support/requests.js';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
beforeAll(async () => {
  ref = await startReference({ events: 4, bookings: 400 }, { workers: 1 }); // pages past 64 KiB
});
afterAll(() => ref.stop());
let tick = 0;
const UNAVAILABLE = {
  code: 'Unavailable',
  seconds: WIRE.faults.codes.find((c) => c.code === 'Unavailable')?.retryAfterSeconds,
};
const bytes = (body: string | Uint8Array) =>
  typeof body === 'string' ? new TextEncoder().encode(body) : body;

/**
 * A GetBookings page as the request loop hands it to the pool (no credentials: answered 401),
 * header names in lower case as node:http gives them.
 */
const pageRequest = (headers: Record<string, string> = {}) => ({
  method: 'GET',
  url: `${ENDPOINT}/GetBookings?eventId=1&skip=0`,
  headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  body: new Uint8Array(0),
});

const health = async () =>
  (await (await fetch(`${ref.svc.server.url}/healthz`)).json()) as {
    status: string;
    workers: Record<string, string>;
  };

describe('worker threads', () => {
  it('runs one worker per lane, and answers from both', async () => {
    expect(ref.svc.pool!.threads.map((t) => t.lane).sort()).toEqual(['bulk', 'quick']);
    const c = ref.client();
    // A write (the quick lane; small reads are the request loop's, see small-reads.test.ts).
    await expect(c.cancelBooking({ bookingReference: 'none' })).rejects.toMatchObject({
      code: 'NotFound',
    });
    expect((await c.getBookingsBatch({ eventId: 1, skip: 0, size: 5 })).length).toBeGreaterThan(0);
    const workers = ref.logs
      .map((l) => JSON.parse(l) as { operation?: string; worker?: number })
      .filter((l) => l.operation !== undefined)
      .map((l) => l.worker);
    expect(new Set(workers).size).toBe(2); // each log line says which worker answered
  });

  it('gives bulk-lane workers a larger young generation, quick-lane ones the default', () => {
    const young = (lane: string) =>
      ref.svc.pool!.threads.find((t) => t.lane === lane)!.resourceLimits.maxYoungGenerationSizeMb;
    expect(young('bulk')).toBe(BULK_YOUNG_GENERATION_MB);
    expect(young('quick')).toBeLessThan(BULK_YOUNG_GENERATION_MB);
  });

  it('bounds every worker heap: a request past it kills its worker, not the server', () => {
    for (const t of ref.svc.pool!.threads)
      expect(t.resourceLimits.maxOldGenerationSizeMb, t.lane).toBe(WORKER_HEAP_MB);
  });

  it('frees the buffer of an answer from a worker once it is written', async () => {
    // A page past one 64 KiB chunk comes back as bytes the worker moved to the request loop.
    const seen: { bytes: number; body: Uint8Array }[] = [];
    const pool = ref.svc.pool!;
    const release = pool.release.bind(pool);
    const spy = vi.spyOn(pool, 'release').mockImplementation((answer) => {
      if (typeof answer.body !== 'string')
        seen.push({ bytes: answer.body.byteLength, body: answer.body });
      release(answer);
    });
    try {
      const page = await ref.client().getBookings({ eventId: 1, skip: 0 });
      expect(page.length).toBeGreaterThan(0);
      for (const deadline = Date.now() + 5_000; seen.length === 0 && Date.now() < deadline; )
        await new Promise((r) => setTimeout(r, 10));
      expect(seen).toHaveLength(1);
      expect(seen[0]!.bytes).toBeGreaterThan(64 * 1024);
      expect(seen[0]!.body.byteLength).toBe(0); // detached: its memory is gone
      // Released twice, or not the pool's: left alone.
      const mine = { status: 200, headers: {}, body: new Uint8Array(8) };
      pool.release(mine);
      expect(mine.body.byteLength).toBe(8);
    } finally {
      spy.mockRestore();
    }
  });

  it('replaces a worker that dies, logs it, and keeps answering', async () => {
    const quick = ref.svc.pool!.threads.find((t) => t.lane === 'quick')!;
    await ref.svc.pool!.terminate(quick.id);
    const deadline = Date.now() + 30_000;
    while (ref.svc.pool!.running.quick < 1 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(ref.svc.pool!.running).toEqual({ quick: 1, bulk: 1 });
    expect(await health()).toEqual({
      status: 'ok',
      database: 'ok',
      workers: { quick: 'ok', bulk: 'ok' },
    });
    const events = ref.logs.map((l) => JSON.parse(l) as { event?: string; worker?: number });
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'worker exited', worker: quick.id }),
    );
    const replacement = ref.svc.pool!.threads.find((t) => t.lane === 'quick')!;
    expect(replacement.id).not.toBe(quick.id);
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'worker started', worker: replacement.id }),
    );
    expect((await ref.client('soap12').getEventDetails3({ eventId: 2 })).EventId).toBe(2);
  });

  it(`refuses with 503 past ${MAX_QUEUED} requests waiting in a lane, and answers the rest`, async () => {
    // Handed over in one synchronous run: the bulk worker takes the first, the queue holds the
    // next MAX_QUEUED, and the two after them find it full.
    const page = pageRequest(); // no credentials: each is answered 401 at once
    const answers = await Promise.all(
      Array.from({ length: MAX_QUEUED + 3 }, () => ref.svc.pool!.handle(page)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(-2)).toEqual([503, 503]);
    expect(statuses.filter((s) => s === 503)).toHaveLength(2);
    // Not "Internal": a client tells overload from a failure, and when to come back.
    expect(answers.at(-1)!.headers).toMatchObject({ 'retry-after': String(UNAVAILABLE.seconds) });
    expect(String(answers.at(-1)!.body)).toBe(
      `${UNAVAILABLE.code}: busy: ${MAX_QUEUED} requests wait in lane bulk\n`,
    );
    expect(new Set(statuses.slice(0, -2))).toEqual(new Set([401]));
  });

  it('refuses in the SOAP binding of the request too, with 503 and Retry-After', async () => {
    const soap = WIRE.bindings.find((b) => b.kind === 'soap')!;
    const request = {
      method: 'POST',
      url: ENDPOINT,
      headers: { 'content-type': soap.requestContentType },
      body: new TextEncoder().encode('<x/>'),
    };
    const pool = ref.svc.pool!;
    const page = pageRequest();
    const answers = await Promise.all([
      ...Array.from({ length: MAX_QUEUED + 1 }, () => pool.handle(page)),
      pool.handle(request), // no SOAPAction: the bulk lane, which is full
    ]);
    const last = answers.at(-1)!;
    expect(last.status).toBe(503);
    expect(last.headers).toEqual({
      'content-type': soap.responseContentType,
      'retry-after': String(UNAVAILABLE.seconds),
    });
    const fault = parseFault(
      soap.id,
      last.status,
      soap.responseContentType,
      bytes(last.body),
      WIRE.faults,
    );
    expect(fault).toMatchObject({
      code: UNAVAILABLE.code,
      faultString: expect.stringMatching(/^busy: /) as string,
    });
  });

  it('answers Internal, with the request id, for the request a dying worker held, and replaces it', async () => {
    const pool = ref.svc.pool!;
    const key = ref.svc.demoKey!;
    const page = () => {
      const Timestamp = new Date(Date.now() + tick++).toISOString();
      const Signature = sign('GetBookings', Timestamp, key.secretKey);
      return pageRequest({ APIKey: key.apiKey, Timestamp, Signature });
    };
    const killWhileBusy = async () => {
      const req = page(); // handed to the idle bulk worker at once, with the id the front gives
      const answer = pool.handle({
        ...req,
        headers: { ...req.headers, 'x-request-id': 'dying-1' },
      });
      const bulk = pool.threads.find((t) => t.lane === 'bulk')!;
      expect(bulk.busy).toBe(true);
      await pool.terminate(bulk.id);
      const res = await answer;
      for (const deadline = Date.now() + 30_000; pool.running.bulk === 0 && Date.now() < deadline; )
        await new Promise((r) => setTimeout(r, 50));
      return res;
    };
    // The worker has its page (about 100 bookings) to build when it is stopped; should a
    // descheduled test process let it answer first, the next try stops it in time.
    let res = await killWhileBusy();
    for (let tries = 1; res.status === 200 && tries < 3; tries++) res = await killWhileBusy();
    expect(res.status, String(res.body)).toBe(500);
    expect(String(res.body)).toMatch(/^Internal: Internal error \(request dying-1\)/);
    expect(pool.running).toEqual({ quick: 1, bulk: 1 });
    // Counted and logged like any answer, with why for the operator.
    const lines = ref.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.requestId === 'dying-1' && l.status === 500);
    expect(lines).toEqual([
      expect.objectContaining({
        operation: 'GetBookings',
        faultCode: 'Internal',
        error: expect.objectContaining({
          message: expect.stringMatching(/^the worker serving it exited with code \d+$/) as string,
        }) as object,
      }),
    ]);
  });

  it('sends page operations to the bulk lane and small ones to the quick lane', () => {
    const req = (url: string, headers: Record<string, string> = {}) => ({
      method: 'POST',
      url,
      headers,
      body: new Uint8Array(0),
    });
    const soap11 = (op: string) =>
      req(ENDPOINT, { 'content-type': 'text/xml', soapaction: `"https://h/API/1_0/SOAP/${op}"` });
    const soap12 = (op: string) =>
      req(ENDPOINT, {
        'content-type': `application/soap+xml; charset=utf-8; action="https://h/API/1_0/SOAP/${op}"`,
      });
    expect(
      [
        soap11('GetBookings'),
        soap12('GetBookingsBatch'),
        req(`${ENDPOINT}/GetExtBookings?eventId=1&skip=0`),
        soap11('GetEventDetails7'),
        soap12('GetContact'),
        req(`${ENDPOINT}/GetBooking`),
        req(ENDPOINT, { 'content-type': 'application/soap+xml' }), // operation unknown until parsed
      ].map(laneOf),
    ).toEqual(['bulk', 'bulk', 'bulk', 'quick', 'quick', 'quick', 'bulk']);
  });

  it("serves the quick lane's reads on the request loop, its writes on workers", () => {
    const soap11 = (op: string) => ({
      method: 'POST',
      url: ENDPOINT,
      headers: { 'content-type': 'text/xml', soapaction: `"https://h/API/1_0/SOAP/${op}"` },
      body: new Uint8Array(0),
    });
    const get = (url: string) => ({ method: 'GET', url, headers: {}, body: new Uint8Array(0) });
    expect(
      [
        soap11('GetEventDetails7'),
        get(`${ENDPOINT}/GetContact?email=a`),
        soap11('CancelBooking'), // mutating (spec/operations.yaml)
        soap11('SubmitSimpleBookingWithBookingStatus'),
        soap11('VerifyTokenForContact'),
        soap11('GetBookings'), // the bulk lane
        soap11('NoSuchOperation'),
        get('/API/1_0/SOAP/ServiceAPI.asmx?wsdl'), // no operation: a worker
      ].map(routeOf),
    ).toEqual(['loop', 'loop', 'quick', 'quick', 'quick', 'bulk', 'quick', 'quick']);
  });
});

describe('a graceful stop', () => {
  it('answers every request in flight or waiting before the threads stop', async () => {
    const own = await startReference({ events: 1, bookings: 50 }, { workers: 1 });
    // One in the bulk worker, two waiting in its queue when the stop begins.
    const answers = [1, 2, 3].map(() => own.svc.pool!.handle(pageRequest()));
    await own.stop();
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([401, 401, 401]);
  });
});
