// OpenTelemetry with a registered tracer provider (the SDK's in-memory exporter): the generated
// client starts a client span through its hooks and sends its traceparent; the reference service
// (its request served by a worker thread) records one server span per request, child of the
// client's, with the operation, binding and fault code.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { EventServiceClient } from '@evgen/event-management/client';
import { BINDING_IDS } from '@evgen/event-management/service';
import { MAX_QUEUED } from '../../../src/reference/workers.js';
import { ENDPOINT } from '../../support/requests.js';
import { startReference, type Reference } from './harness.js';

const TOKEN = 'tracing-token-0123456789';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let ref: Reference;
beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  ref = await startReference(
    { events: 2, bookings: 10 },
    { workers: 1, admin: { port: 0 }, testControls: { token: TOKEN } },
  );
});
afterAll(async () => {
  await ref?.stop();
  await provider.shutdown();
  trace.disable();
});

/** A client whose hooks start a client span per attempt and send its traceparent. */
function tracedClient(binding: (typeof BINDING_IDS)[number]) {
  const tracer = trace.getTracer('integrator');
  const open = new Map<number, Span>();
  return new EventServiceClient({
    baseUrl: ref.svc.server.url,
    ...ref.svc.demoKey!,
    binding,
    onRequest: (r) => {
      const span = tracer.startSpan(r.operation, { kind: SpanKind.CLIENT });
      const { traceId, spanId } = span.spanContext();
      r.headers.traceparent = `00-${traceId}-${spanId}-01`;
      open.set(r.attempt, span);
    },
    onResponse: (r) => {
      const span = open.get(r.attempt)!;
      span.setAttribute('http.response.status_code', r.status);
      span.end();
    },
  });
}

it('one server span per request, child of the client span, on every binding', async () => {
  exporter.reset();
  for (const binding of BINDING_IDS) {
    await tracedClient(binding).getShows();
    await expect(
      tracedClient(binding).getAccommodation({ eventId: 999_999 }),
    ).rejects.toMatchObject({
      code: 'NotFound',
    });
  }
  const spans = exporter.getFinishedSpans();
  const clients = spans.filter((s) => s.kind === SpanKind.CLIENT);
  const servers = spans.filter((s) => s.kind === SpanKind.SERVER);
  expect(clients).toHaveLength(2 * BINDING_IDS.length);
  expect(servers).toHaveLength(clients.length);
  for (const client of clients) {
    const server = servers.find((s) => s.parentSpanContext?.spanId === client.spanContext().spanId);
    expect(server?.spanContext().traceId).toBe(client.spanContext().traceId);
    expect(server?.name).toBe(client.name);
  }
  expect(
    servers.map((s) => [
      s.attributes['rpc.method'],
      s.attributes['evgen.binding'],
      s.attributes['evgen.fault_code'],
    ]),
  ).toEqual(
    BINDING_IDS.flatMap((b) => [
      ['GetShows', b, undefined],
      ['GetAccommodation', b, 'NotFound'],
    ]),
  );
  // NotFound says the request was wrong (even where SOAP 1.1 answers it 500): not an error.
  expect(servers.map((s) => s.status.code)).toEqual(servers.map(() => SpanStatusCode.UNSET));
});

it('a request without traceparent gets a server span of its own trace', async () => {
  exporter.reset();
  await ref.client().getShows();
  const [server] = exporter.getFinishedSpans();
  expect(server?.kind).toBe(SpanKind.SERVER);
  expect(server?.parentSpanContext).toBeUndefined();
  expect(server?.attributes['evgen.request_id']).toEqual(expect.any(String));
});

it('a fault that says the service failed makes the server span an error', async () => {
  const armed = await fetch(`${ref.svc.admin!.url}/controls/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'GetShows', fault: 'Unavailable' }),
  });
  expect(armed.status).toBe(201);
  exporter.reset();
  await expect(ref.client().getShows()).rejects.toMatchObject({ code: 'Unavailable' });
  const [server] = exporter.getFinishedSpans();
  expect(server?.attributes['evgen.fault_code']).toBe('Unavailable');
  expect(server?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Unavailable' });
});

it('a request refused before a worker took it (its lane full) has its server span too', async () => {
  // Before, such a refusal wrote a log line of its own and recorded no span.
  const caller = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) };
  const page = (headers: Record<string, string> = {}) => ({
    method: 'GET',
    url: `${ENDPOINT}/GetBookings?eventId=1&skip=0`, // the bulk lane; no credentials: 401 at once
    headers,
    body: new Uint8Array(0),
  });
  exporter.reset();
  // In one synchronous run: the lane's worker takes the first, its queue the next MAX_QUEUED.
  const pool = ref.svc.pool!;
  const answers = await Promise.all([
    ...Array.from({ length: 1 + MAX_QUEUED }, () => pool.handle(page())),
    pool.handle(
      page({
        traceparent: `00-${caller.traceId}-${caller.spanId}-01`,
        'x-request-id': 'refused-1',
      }),
    ),
  ]);
  expect(answers.at(-1)!.status).toBe(503);
  const refused = exporter
    .getFinishedSpans()
    .filter((s) => s.attributes['evgen.fault_code'] === 'Unavailable');
  expect(refused).toHaveLength(1);
  const [span] = refused;
  expect(span?.kind).toBe(SpanKind.SERVER);
  expect(span?.name).toBe('GetBookings');
  expect(span?.spanContext().traceId).toBe(caller.traceId);
  expect(span?.parentSpanContext?.spanId).toBe(caller.spanId);
  expect(span?.attributes).toMatchObject({
    'http.response.status_code': 503,
    'evgen.request_id': 'refused-1',
  });
  expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Unavailable' });
});
