// Prometheus metrics of the reference service (prom-client), served at /metrics on the admin
// listener (admin.ts). Every request is counted on the request loop from its log record, whichever
// worker thread served it, so the numbers cover every worker and survive a worker's restart.
// Label values come only from the spec's tables (operations, bindings, fault codes) and the lanes:
// a request naming anything else is counted under "none", so no caller can grow the label sets.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { operations } from '@evgen/event-management/operations';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import { LANES, type Lane } from '../lanes.js';
import type { RequestRecord } from './logger.js';

/** Label value of a request that named no operation (the WSDL, help pages, unknown paths). */
export const NONE = 'none';
export const OK = 'ok';
/** Pages the engine names in place of a binding. */
const PAGES = ['wsdl', 'help'];

const OPERATIONS = new Set(Object.keys(operations));
const BINDINGS = new Set<string>([...BINDING_IDS, ...PAGES]);
const OUTCOMES = new Set(WIRE.faults.codes.map((c) => c.code));
const bounded = (allowed: ReadonlySet<string>, value: string | undefined) =>
  value !== undefined && allowed.has(value) ? value : NONE;

/** Latency buckets in seconds: from a cached small call to a large page. */
export const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** What the service's parts tell the metrics when scraped. */
export interface MetricSources {
  /** Connections open on the public listener. */
  readonly openConnections: () => Promise<number>;
  /** Per lane: requests waiting, threads running, threads that stopped unasked (worker threads only). */
  readonly lanes?: () => Readonly<
    Record<Lane, { queued: number; running: number; restarts: number }>
  >;
  /** Bytes the replay record takes (its files, or its table with indexes); undefined: none. */
  readonly replayRecordBytes?: () => Promise<number | undefined>;
  /** Log lines dropped because stdout did not keep up. */
  readonly droppedLogLines?: () => number;
}

export interface ServiceMetrics {
  readonly registry: Registry;
  /** Counts a request served (from its log record). */
  request(record: RequestRecord): void;
  /** Counts a connection refused (the listener's 'drop'). */
  refusedConnection(): void;
}

export function createMetrics(s: MetricSources): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'evgen_' });
  const requests = new Counter({
    name: 'evgen_requests_total',
    help: 'Requests answered, by operation, binding and outcome (ok or the fault code)',
    labelNames: ['operation', 'binding', 'outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'evgen_request_duration_seconds',
    help: 'Time from a request reaching a service instance to its answer, by operation',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const refused = new Counter({
    name: 'evgen_connections_refused_total',
    help: 'Connections closed unserved because of the connection limits',
    registers: [registry],
  });
  new Gauge({
    name: 'evgen_connections_open',
    help: 'Connections open on the public listener',
    registers: [registry],
    async collect() {
      this.set(await s.openConnections());
    },
  });
  laneMetrics(registry, s);
  sourceGauges(registry, s);
  return {
    registry,
    request(r) {
      const operation = bounded(OPERATIONS, r.operation);
      const outcome = r.faultCode === undefined ? OK : bounded(OUTCOMES, r.faultCode);
      requests.inc({ operation, binding: bounded(BINDINGS, r.binding), outcome });
      latency.observe({ operation }, r.durationMs / 1000);
    },
    refusedConnection: () => refused.inc(),
  };
}

function laneMetrics(registry: Registry, s: MetricSources): void {
  const lanes = s.lanes;
  if (!lanes) return;
  const laneGauge = (name: string, help: string, of: 'queued' | 'running') =>
    new Gauge({
      name,
      help,
      labelNames: ['lane'],
      registers: [registry],
      collect() {
        const now = lanes();
        for (const lane of LANES) this.set({ lane }, now[lane][of]);
      },
    });
  laneGauge(
    'evgen_lane_queued_requests',
    'Requests waiting for a worker thread, by lane',
    'queued',
  );
  laneGauge(
    'evgen_lane_workers_running',
    'Worker threads started and not dead, by lane',
    'running',
  );
  // The pool counts the threads that stopped; the counter follows it when scraped.
  const seen: Record<Lane, number> = { quick: 0, bulk: 0 };
  new Counter({
    name: 'evgen_worker_restarts_total',
    help: 'Worker threads that stopped unasked (each replaced unless its lane keeps failing to start), by lane',
    labelNames: ['lane'],
    registers: [registry],
    collect() {
      const now = lanes();
      for (const lane of LANES) {
        this.inc({ lane }, now[lane].restarts - seen[lane]);
        seen[lane] = now[lane].restarts;
      }
    },
  });
}

function sourceGauges(registry: Registry, s: MetricSources): void {
  const replay = s.replayRecordBytes;
  if (replay)
    new Gauge({
      name: 'evgen_replay_record_bytes',
      help: 'Size of the replay record: its SQLite file and write-ahead log, or its PostgreSQL table',
      registers: [registry],
      async collect() {
        const bytes = await replay();
        if (bytes !== undefined) this.set(bytes);
      },
    });
  const dropped = s.droppedLogLines;
  if (dropped)
    new Gauge({
      name: 'evgen_log_lines_dropped',
      help: 'Log lines dropped since start because stdout did not keep up',
      registers: [registry],
      collect() {
        this.set(dropped());
      },
    });
}
