// The request metrics are counted in tables of their own and read when scraped
// (request-tables.ts, table-histogram.ts): what /metrics shows must be exactly what prom-client's
// own counter and histogram show for the same requests, in the text format and in JSON.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { operations } from '@evgen/event-management/operations';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import { LATENCY_BUCKETS, NONE, OK, createMetrics } from '../../../src/reference/ops/metrics.js';
import type { RequestRecord } from '../../../src/reference/ops/logger.js';

const REQUESTS = 'evgen_requests_total';
const LATENCY = 'evgen_request_duration_seconds';
const [op1, op2] = Object.keys(operations);
const [soap, other] = BINDING_IDS;
const fault = WIRE.faults.codes[0]!.code;

const record = (
  operation: string | undefined,
  binding: string | undefined,
  faultCode: string | undefined,
  durationMs: number,
): RequestRecord => ({
  operation,
  binding,
  faultCode,
  durationMs,
  status: faultCode ? 500 : 200,
  apiKeyName: undefined,
});

/** prom-client's own metrics fed the same requests, bounded as the service bounds them. */
function reference(records: readonly RequestRecord[]): Registry {
  const registry = new Registry();
  const requests = new Counter({
    name: REQUESTS,
    help: 'Requests answered, by operation, binding and outcome (ok or the fault code)',
    labelNames: ['operation', 'binding', 'outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: LATENCY,
    help: 'Time from a request reaching a service instance to its answer, by operation',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const known = (values: readonly string[], v: string | undefined) =>
    v !== undefined && values.includes(v) ? v : NONE;
  for (const r of records) {
    const operation = known(Object.keys(operations), r.operation);
    const binding = known([...BINDING_IDS, 'wsdl', 'help'], r.binding);
    const outcome = r.faultCode === undefined ? OK : known([fault], r.faultCode);
    requests.inc({ operation, binding, outcome });
    latency.observe({ operation }, r.durationMs / 1000);
  }
  return registry;
}

const cases: { name: string; given: RequestRecord[] }[] = [
  { name: 'no requests yet', given: [] },
  {
    name: 'calls over operations, bindings and outcomes, at and between bucket bounds',
    given: [
      record(op1, soap, undefined, 0.5),
      record(op1, soap, undefined, 1),
      record(op1, other, fault, 0.2),
      record(op2, soap, undefined, 2_500),
      record(op2, soap, undefined, 60_000),
      record(op1, soap, undefined, 0.75),
    ],
  },
  {
    name: 'names outside the tables, counted as none',
    given: [
      record(undefined, 'wsdl', undefined, 1.5),
      record('NoSuchOperation', 'nowhere', 'NoSuchCode', 3),
      record(op1, undefined, undefined, 4),
    ],
  },
];

describe('request metrics', () => {
  for (const { name, given } of cases)
    it(`show what prom-client shows: ${name}`, async () => {
      const metrics = createMetrics({ openConnections: () => Promise.resolve(0) });
      for (const r of given) metrics.request(r);
      const want = reference(given);
      for (const metric of [REQUESTS, LATENCY]) {
        const text = await metrics.registry.getSingleMetricAsString(metric);
        expect(text).toBe(await want.getSingleMetricAsString(metric));
        expect(text.split('\n').length).toBeGreaterThan(given.length === 0 ? 1 : 3);
        expect(await metrics.registry.getSingleMetric(metric)!.get()).toEqual(
          await want.getSingleMetric(metric)!.get(),
        );
      }
    });
});
