// /metrics on the admin listener: after calls spread over operations and bindings, the request
// counters sum to the calls made, by operation, binding and outcome, and the latency histograms
// count them too; on the request loop and with worker threads (counted on the request loop, so
// every worker's calls are in one set of numbers). The calls are derived from the spec's tables:
// every operation that reads an event by its id alone, on every binding, once for an event that
// exists and once for one that does not.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperationDef } from '@evgen/runtime';
import { ServiceError } from '@evgen/event-management/errors';
import { createTransport } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { operations } from '@evgen/event-management/operations';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import { setTimeout as sleep } from 'node:timers/promises';
import { startReference, type Reference } from './harness.js';
import { samples, scrape, sumBy } from '../../support/prometheus.js';
import { BACKEND } from '../../support/backend.js';
import { POOL_INLINE, POOL_PER_WORKER, POOL_SMALL_READS } from '../../../src/reference/serve.js';
import {
  REPLAY_PRUNE_INTERVAL_MS,
  ReplayLog,
  replayLogOf,
} from '../../../src/reference/replay-log/replay-log.js';
import { replayEntry } from '../../../src/reference/replay-log/entry.js';
import { LANES } from '../../../src/reference/lanes.js';
import { MAX_QUEUED } from '../../../src/reference/workers.js';
import { requestLevel } from '../../../src/reference/ops/logger.js';
import { REQUEST_ID_HEADER } from '../../../src/reference/ops/request-id.js';
import { ENDPOINT } from '../../support/requests.js';

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

/** One sample's value (a metric without labels, or the one sample of a label set). */
const value = (text: string, name: string, labels: Record<string, string> = {}) =>
  samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;

/** Adds an entry to the replay record whose window passed long ago: the next pruning removes it. */
async function addExpiredEntry(ref: Reference): Promise<void> {
  if (BACKEND === 'postgres') {
    await ref.svc.database.query(
      "INSERT INTO replay_record (digest, expires_at) VALUES (decode(md5(random()::text), 'hex'), 1)",
    );
    return;
  }
  const target = ref.svc.target;
  if (target.dialect !== 'sqlite') throw new Error('a SQLite service was expected');
  // A writer of its own, on a clock of 1970: it deletes nothing as it opens.
  const log = new ReplayLog(replayLogOf(target.path), { nowMs: 0 });
  try {
    log.keep([replayEntry(`expired ${randomUUID()}`, 1)]);
  } finally {
    log.close();
  }
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
    if (BACKEND === 'sqlite') expect(samples(text, 'evgen_db_pool_connections')).toEqual([]); // no pool to report
    const pub = await fetch(`${ref.svc.server.url}/metrics`);
    expect(pub.status).not.toBe(200);
    expect(await pub.text()).not.toContain('evgen_requests_total');
  });

  it('counts the replay record being pruned, and the entries it removed', async () => {
    await ref.client().getShows(); // every instance's first call prunes: the counters exist
    const before = await scrape(ref.svc.admin!.url);
    const prunes = value(before, 'evgen_replay_prunes_total')!;
    const pruned = value(before, 'evgen_replay_pruned_entries_total')!;
    expect(prunes).toBeGreaterThanOrEqual(1);
    await addExpiredEntry(ref);
    await sleep(REPLAY_PRUNE_INTERVAL_MS + 100);
    await ref.client().getShows(); // whichever instance serves it prunes now
    const after = await scrape(ref.svc.admin!.url);
    expect(value(after, 'evgen_replay_prunes_total')).toBeGreaterThan(prunes);
    expect(value(after, 'evgen_replay_pruned_entries_total')).toBe(pruned + 1);
  });

  it.runIf(workers > 0)(
    'counts the requests refused before a worker took them, each with its request line',
    async () => {
      // Before, a refusal on the request loop (a full lane) wrote a line of its own, without the
      // request id, and was missing from evgen_requests_total and the span.
      const outcome = 'Unavailable';
      const labels = {
        operation: 'GetBookings', // a page: the bulk lane
        binding: WIRE.bindings.find((b) => b.kind === 'http' && b.method === 'GET')!.id,
      };
      const page = (id: string) => ({
        method: 'GET',
        url: `${ENDPOINT}/${labels.operation}?eventId=1&skip=0`,
        headers: { [REQUEST_ID_HEADER]: id }, // as the front handler gives it
        body: new Uint8Array(0),
      });
      const counted = (text: string, o: string | undefined) =>
        samples(text, 'evgen_requests_total')
          .filter((s) => s.labels.operation === labels.operation)
          .filter((s) => s.labels.binding === labels.binding)
          .filter((s) => o === undefined || s.labels.outcome === o)
          .reduce((n, s) => n + s.value, 0);
      const before = await scrape(ref.svc.admin!.url);
      // In one synchronous run: the lane's idle workers take one each, its queue holds
      // MAX_QUEUED, and the rest are refused. No credentials: a worker answers each 401 at once.
      const ids = Array.from({ length: workers + MAX_QUEUED + 3 }, (_, i) => `lane-full-${i}`);
      const answers = await Promise.all(ids.map((id) => ref.svc.pool!.handle(page(id))));
      const refused = ids.filter((_, i) => answers[i]!.status === 503);
      expect(refused).toEqual(ids.slice(-3));
      const after = await scrape(ref.svc.admin!.url);
      expect(counted(after, outcome) - counted(before, outcome)).toBe(refused.length);
      expect(counted(after, undefined) - counted(before, undefined)).toBe(ids.length); // once each
      const lines = ref.logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => refused.includes(l.requestId as string));
      expect(lines.map((l) => l.requestId)).toEqual(refused);
      for (const line of lines)
        expect(line).toMatchObject({
          level: requestLevel({ status: 503, faultCode: outcome }),
          ...labels,
          status: 503,
          faultCode: outcome,
          durationMs: expect.any(Number) as number,
          error: { message: `busy: ${MAX_QUEUED} requests wait in lane bulk` },
        });
    },
  );

  it.runIf(BACKEND === 'postgres')(
    'reports the PostgreSQL pools of the instances: sizes, connections open as the server sees them, none waiting at rest',
    async () => {
      await callAll(ref, [1]);
      const text = await scrape(ref.svc.admin!.url);
      // The workers' pools and the request loop's, which serves the small reads beside them.
      const max =
        workers === 0 ? POOL_INLINE : LANES.length * workers * POOL_PER_WORKER + POOL_SMALL_READS;
      const open = value(text, 'evgen_db_pool_connections')!;
      expect(value(text, 'evgen_db_pool_connections_max')).toBe(max);
      expect(open).toBeGreaterThanOrEqual(1);
      expect(open).toBeLessThanOrEqual(max);
      expect(value(text, 'evgen_db_pool_connections_idle')).toBe(open); // every call answered
      expect(value(text, 'evgen_db_pool_waiting')).toBe(0);
      // The server's own count: these pools' connections and the health check's one, at most.
      const seen = Number(
        await ref.value(
          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'evgen'",
        ),
      );
      expect(seen - open).toBeGreaterThanOrEqual(0);
      expect(seen - open).toBeLessThanOrEqual(1);
    },
  );
});
