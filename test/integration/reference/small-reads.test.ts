// Small reads on the request loop (lanes.ts, routeOf): with worker threads, the operations of
// the quick lane that change nothing are answered by the request loop itself, writes and pages by
// workers. Both paths serve every read: the same request gets the same answer from either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceRequest } from '@evgen/runtime';
import { WIRE } from '@evgen/event-management/service';
import {
  ENDPOINT,
  authHeaderXml,
  credentialHeaders,
  freshTimestamp,
  sign,
  soapNamespaceOf,
  soapRequest,
} from '../../support/requests.js';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
beforeAll(async () => {
  ref = await startReference({ events: 3, bookings: 60 }, { workers: 1 });
});
afterAll(() => ref.stop());

/** The log lines of requests answered since `from`, by operation: the worker, if one served it. */
const servedBy = (from: number) =>
  ref.logs
    .slice(from)
    .map((l) => JSON.parse(l) as { operation?: string; worker?: number })
    .filter((l) => l.operation !== undefined)
    .map((l) => [l.operation, l.worker ?? 'loop'] as const);

/** A signed request for `op`, over SOAP 1.1 or HTTP GET, as node:http hands it to the service. */
function signed(binding: 'soap11' | 'httpGet', op: string, params: Record<string, string>) {
  const url = ref.svc.server.url;
  const key = ref.svc.demoKey!;
  const Timestamp = freshTimestamp();
  const auth = {
    Timestamp,
    Operation: op,
    Signature: sign(op, Timestamp, key.secretKey),
    APIKey: key.apiKey,
  };
  const host = new URL(url).host;
  if (binding === 'httpGet')
    return {
      method: 'GET',
      url: `${ENDPOINT}/${op}?${new URLSearchParams(params).toString()}`,
      headers: { host, ...lowerCase(credentialHeaders(auth)) },
      body: new Uint8Array(0),
    } satisfies ServiceRequest;
  const ns = soapNamespaceOf(url);
  const xml = Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('');
  const soap = WIRE.bindings.find((b) => b.kind === 'soap')!;
  return {
    method: 'POST',
    url: ENDPOINT,
    headers: {
      host,
      'content-type': soap.requestContentType,
      soapaction: `"${ns}${op}"`,
    },
    body: new TextEncoder().encode(soapRequest('1.1', ns, op, xml, authHeaderXml(ns, auth))),
  } satisfies ServiceRequest;
}

const lowerCase = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** `req` over HTTP, as a client sends it: status, media type and body bytes. */
async function overHttp(req: ServiceRequest) {
  const res = await fetch(`${ref.svc.server.url}${req.url}`, {
    method: req.method,
    headers: Object.fromEntries(
      Object.entries(req.headers).filter((e): e is [string, string] => e[0] !== 'host' && !!e[1]),
    ),
    ...(req.method === 'POST' ? { body: Buffer.from(req.body) } : {}),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

/** `req` handed to the quick lane's worker directly, as the request loop did before. */
async function onWorker(req: ServiceRequest) {
  const res = await ref.svc.pool!.handle(req);
  return {
    status: res.status,
    type: res.headers['content-type'] ?? null,
    body: typeof res.body === 'string' ? new TextEncoder().encode(res.body) : res.body.slice(),
  };
}

describe('small reads on the request loop', () => {
  it('answers reads on the request loop, writes and pages on workers', async () => {
    const from = ref.logs.length;
    const c = ref.client();
    await c.getEventDetails7({ eventId: 1 });
    await c.getAttendeeTypes({ eventId: 1 });
    await c.getBookingsBatch({ eventId: 1, skip: 0, size: 5 });
    await expect(c.cancelBooking({ bookingReference: 'no-such-booking' })).rejects.toMatchObject({
      code: 'NotFound',
    });
    const quick = ref.svc.pool!.threads.find((t) => t.lane === 'quick')!.id;
    const bulk = ref.svc.pool!.threads.find((t) => t.lane === 'bulk')!.id;
    expect(servedBy(from)).toEqual([
      ['GetEventDetails7', 'loop'],
      ['GetAttendeeTypes', 'loop'],
      ['GetBookingsBatch', bulk],
      ['CancelBooking', quick],
    ]);
  });

  it.each([
    { binding: 'soap11', op: 'GetEventDetails7', params: { eventId: '2' } },
    { binding: 'httpGet', op: 'GetEventDetails7', params: { eventId: '2' } },
    { binding: 'soap11', op: 'GetAttendeeTypes', params: { eventId: '1' } },
    { binding: 'httpGet', op: 'GetShows', params: {} },
    { binding: 'soap11', op: 'GetEventDetails7', params: { eventId: '999999' } }, // a fault
  ] as { binding: 'soap11' | 'httpGet'; op: string; params: Record<string, string> }[])(
    'gives the same answer on both paths: $op over $binding',
    async (c) => {
      const from = ref.logs.length;
      const loop = await overHttp(signed(c.binding, c.op, c.params));
      const worker = await onWorker(signed(c.binding, c.op, c.params));
      expect(servedBy(from).map(([, by]) => by === 'loop')).toEqual([true, false]);
      expect(loop.body.byteLength).toBeGreaterThan(0);
      expect({ ...loop, body: Buffer.from(loop.body).toString() }).toEqual({
        ...worker,
        body: Buffer.from(worker.body).toString(),
      });
    },
  );
});
