// /metrics on the admin listener: after calls spread over operations and bindings, the request
// counters sum to the calls made, by operation, binding and outcome, and the latency histograms
// count them too; on the request loop and with worker threads (counted on the request loop, so
// every worker's calls are in one set of numbers). The calls are derived from the spec's tables:
// every operation that reads an event by its id alone, on every binding, once for an event that
// exists and once for one that does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperationDef } from '@evgen/runtime';
import { ServiceError } from '@evgen/event-management/errors';
import { createTransport } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { operations } from '@evgen/event-management/operations';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import { startReference, type Reference } from './harness.js';
import { samples, scrape, sumBy } from '../../support/prometheus.js';

const BY_EVENT_ID: readonly AnyOperationDef[] = Object.values(operations).filter(
  (op) => !op.mutating && op.paramNames.length === 1 && op.paramNames[0] === 'eventId',
);

interface Call {
  readonly operation: string;
  readonly binding: string;
  readonly outcome: string;
}

/** Every operation of BY_EVENT_ID on every binding, for `eventIds`: what each call answered. */
async function callAll(ref: Reference, eventIds: readonly number[]): Promise<Call[]> {
  const key = ref.svc.demoKey!;
  const calls: Call[] = [];
  for (const binding of BINDING_IDS) {
    const t = createTransport({
      baseUrl: ref.svc.server.url,
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      auth: authScheme,
      wire: WIRE,
      binding,
    });
    for (const op of BY_EVENT_ID)
      for (const eventId of eventIds) {
        const outcome = await t.call(op, { eventId }).then(
          () => 'ok',
          (e: unknown) => (e instanceof ServiceError ? e.code : 'transport'),
        );
        calls.push({ operation: op.name, binding, outcome });
      }
  }
  return calls;
}

const countBy = (calls: readonly Call[], k: keyof Call) =>
  calls.reduce<Record<string, number>>((n, c) => ((n[c[k]] = (n[c[k]] ?? 0) + 1), n), {});

describe.each([0, 2])('metrics with %i workers', (workers) => {
  let ref: Reference;
  beforeAll(async () => {
    ref = await startReference({ events: 3, bookings: 20 }, { workers, admin: { port: 0 } });
  });
  afterAll(() => ref?.stop());

  it('counts every call by operation, binding and outcome, and times each', async () => {
    expect(BY_EVENT_ID.length).toBeGreaterThan(1);
    const id = await ref.value<number>('SELECT id FROM event ORDER BY id LIMIT 1');
    const calls = await callAll(ref, [id, 999_999]);
    expect(calls.every((c) => c.outcome !== 'transport')).toBe(true);
    expect(new Set(calls.map((c) => c.outcome)).size).toBeGreaterThan(1); // ok and a fault
    const text = await scrape(ref.svc.admin!.url);
    const counted = samples(text, 'evgen_requests_total');
    expect(counted.reduce((n, s) => n + s.value, 0)).toBe(calls.length);
    for (const label of ['operation', 'binding', 'outcome'] as const)
      expect(sumBy(text, 'evgen_requests_total', label)).toEqual(countBy(calls, label));
    const exact = new Map(
      counted.map((s) => [
        `${s.labels.operation} ${s.labels.binding} ${s.labels.outcome}`,
        s.value,
      ]),
    );
    for (const [k, n] of Object.entries(
      calls.reduce<Record<string, number>>((m, c) => {
        const key = `${c.operation} ${c.binding} ${c.outcome}`;
        m[key] = (m[key] ?? 0) + 1;
        return m;
      }, {}),
    ))
      expect([k, exact.get(k)]).toEqual([k, n]);
    expect(sumBy(text, 'evgen_request_duration_seconds_count', 'operation')).toEqual(
      countBy(calls, 'operation'),
    );
  });

  it('reports connections, lanes, worker restarts and the replay record; never on the public port', async () => {
    const text = await scrape(ref.svc.admin!.url);
    expect(samples(text, 'evgen_connections_open')).toHaveLength(1);
    expect(samples(text, 'evgen_connections_refused_total')).toEqual([{ labels: {}, value: 0 }]);
    expect(samples(text, 'evgen_replay_record_bytes')[0]!.value).toBeGreaterThan(0);
    const running = sumBy(text, 'evgen_lane_workers_running', 'lane');
    expect(running).toEqual({ quick: workers, bulk: workers });
    expect(new URL(ref.svc.admin!.url).hostname).toBe('127.0.0.1');
    if (workers > 0) {
      const [victim] = ref.svc.pool!.threads;
      await ref.svc.pool!.terminate(victim!.id);
      await expect
        .poll(() => ref.svc.pool!.running[victim!.lane], { timeout: 20_000 })
        .toBe(workers);
      const after = sumBy(await scrape(ref.svc.admin!.url), 'evgen_worker_restarts_total', 'lane');
      expect(after).toEqual({ quick: 0, bulk: 0, [victim!.lane]: 1 });
    }
    const pub = await fetch(`${ref.svc.server.url}/metrics`);
    expect(pub.status).not.toBe(200);
    expect(await pub.text()).not.toContain('evgen_requests_total');
  });
});
