// Request ids on the reference service, served by a worker thread or by the request loop (small
// reads): the caller's X-Request-Id (or a new one for none or an unusable one) comes back on every
// answer and is on the request's log line, with the trace id of a W3C traceparent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventServiceClient } from '@evgen/event-management/client';
import { startReference, type Reference } from './harness.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let ref: Reference;
beforeAll(async () => {
  ref = await startReference({ events: 2, bookings: 10 }, { workers: 1 });
});
afterAll(() => ref?.stop());

/**
 * A call with `headers` added by the client's hook, GetBookingsBatch (a worker's) unless `small`
 * (GetShows, the request loop's): the answer's headers and its log line.
 */
async function call(headers: Record<string, string>, small = false) {
  ref.logs.length = 0;
  let answered: Readonly<Record<string, string>> = {};
  const client = new EventServiceClient({
    baseUrl: ref.svc.server.url,
    apiKey: ref.svc.demoKey!.apiKey,
    secretKey: ref.svc.demoKey!.secretKey,
    onRequest: (r) => void Object.assign(r.headers, headers),
    onResponse: (r) => void (answered = r.headers),
  });
  await (small ? client.getShows() : client.getBookingsBatch({ eventId: 1, skip: 0, size: 1 }));
  expect(ref.logs).toHaveLength(1);
  return {
    header: answered['x-request-id'],
    line: JSON.parse(ref.logs[0]!) as Record<string, unknown>,
  };
}

describe('request ids', () => {
  it.each([
    { by: 'a worker', small: false, operation: 'GetBookingsBatch', worker: 'number' },
    { by: 'the request loop', small: true, operation: 'GetShows', worker: 'undefined' },
  ])(
    "keeps the caller's id, served by $by: on the answer and the log line, with the trace id",
    async (c) => {
      const { header, line } = await call(
        { 'x-request-id': 'ci-run-7.call-3', traceparent: `00-${TRACE}-b7ad6b7169203331-01` },
        c.small,
      );
      expect(header).toBe('ci-run-7.call-3');
      expect(line).toMatchObject({
        level: 'info',
        operation: c.operation,
        requestId: 'ci-run-7.call-3',
        traceId: TRACE,
      });
      expect(typeof line.worker).toBe(c.worker);
    },
  );

  for (const [given, headers] of [
    ['no id', {}],
    ['an id too long', { 'x-request-id': 'x'.repeat(129) }],
    ['an id with a space', { 'x-request-id': 'a b' }],
  ] as const)
    it(`gives ${given} a new one, the same on the answer and the line`, async () => {
      const { header, line } = await call(headers);
      expect(header).toMatch(UUID);
      expect(line.requestId).toBe(header);
      expect(line).not.toHaveProperty('traceId');
    });

  it('answers every request with an id: the WSDL, /healthz, an unknown path', async () => {
    for (const path of [`${ref.svc.endpointPath}?wsdl`, '/healthz', '/nowhere']) {
      const res = await fetch(`${ref.svc.server.url}${path}`, {
        headers: { 'x-request-id': 'p-1' },
      });
      expect([path, res.headers.get('x-request-id')]).toEqual([path, 'p-1']);
    }
  });
});
