// Prometheus metrics of the reference service (prom-client), served at /metrics on the admin
// listener (admin.ts). Every request is counted on the request loop from its log record, whichever
// worker thread served it, so the numbers cover every worker and survive a worker's restart.
// Label values come only from the spec's tables (operations, bindings, fault codes) and the lanes:
// a request naming anything else is counted under "none", so no caller can grow the label sets.
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { operations } from '@evgen/event-management/operations';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import { LANES, type Lane } from '../lanes.js';
import type { RequestRecord } from './logger.js';
import type { PoolCounts, ReplayTotals } from './instance-stats.js';
import { RequestTables } from './request-tables.js';
import { TableHistogram } from './table-histogram.js';

/** Label value of a request that named no operation (the WSDL, help pages, unknown paths). */
export const NONE = 'none';
export const OK = 'ok';
/** Pages the engine names in place of a binding. */
const PAGES = ['wsdl', 'help'];

/** The label values a request is counted under; anything else is counted as NONE. */
const LABEL_VALUES = {
  operations: [...Object.keys(operations), NONE],
  bindings: [...BINDING_IDS, ...PAGES, NONE],
  outcomes: [OK, ...WIRE.faults.codes.map((c) => c.code), NONE],
  other: NONE,
};

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

/** What the instances serving calls report (ops/instance-stats.ts), known once they start. */
export interface InstanceSources {
  /** Their PostgreSQL pools, summed (none on SQLite). */
  readonly pools?: () => PoolCounts;
  /** Their replay record's upkeep since start. */
  readonly replay: () => ReplayTotals;
}

export interface ServiceMetrics {
  readonly registry: Registry;
  /** Counts a request served (from its log record). */
  request(record: RequestRecord): void;
  /** Counts a connection refused (the listener's 'drop'). */
  refusedConnection(): void;
  /** Adds the metrics of what the instances report, once (when they are created). */
  instances(s: InstanceSources): void;
}

export function createMetrics(s: MetricSources): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'evgen_' });
  // Requests are counted in tables of their own (request-tables.ts); the two metrics read them.
  const tables = new RequestTables(LABEL_VALUES, LATENCY_BUCKETS);
  followingCounter(
    registry,
    {
      name: 'evgen_requests_total',
      help: 'Requests answered, by operation, binding and outcome (ok or the fault code)',
      labelNames: ['operation', 'binding', 'outcome'],
    },
    () => tables.requests(),
  );
  new TableHistogram(
    {
      name: 'evgen_request_duration_seconds',
      help: 'Time from a request reaching a service instance to its answer, by operation',
      labelNames: ['operation'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    },
    () => tables.latencies(),
  );
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
      tables.count(r.operation, r.binding, r.faultCode ?? OK, r.durationMs / 1000);
    },
    refusedConnection: () => refused.inc(),
    instances(i) {
      if (i.pools) poolGauges(registry, i.pools);
      replayCounters(registry, i);
    },
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
  followingCounter(
    registry,
    {
      name: 'evgen_worker_restarts_total',
      help: 'Worker threads that stopped unasked (each replaced unless its lane keeps failing to start), by lane',
      labelNames: ['lane'],
    },
    () => {
      const now = lanes();
      return byLabel('lane', Object.fromEntries(LANES.map((lane) => [lane, now[lane].restarts])));
    },
  );
}

function sourceGauges(registry: Registry, s: MetricSources): void {
  const replay = s.replayRecordBytes;
  if (replay)
    new Gauge({
      name: 'evgen_replay_record_bytes',
      help: "Size of the replay record: its log's files beside a SQLite database, or its PostgreSQL table",
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

function poolGauges(registry: Registry, pools: () => PoolCounts): void {
  const gauge = (name: string, help: string, of: keyof PoolCounts) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pools()[of]);
      },
    });
  gauge(
    'evgen_db_pool_connections',
    'PostgreSQL connections open in the pools of the instances serving calls (worker threads, or the request loop)',
    'total',
  );
  gauge('evgen_db_pool_connections_idle', 'Of those, connections open and not in use', 'idle');
  gauge(
    'evgen_db_pool_waiting',
    "Calls waiting for a connection of their instance's pool",
    'waiting',
  );
  gauge(
    'evgen_db_pool_connections_max',
    'The most connections those pools may open (their sizes, summed)',
    'max',
  );
}

/** Totals by the values of one label, as followingCounter reads them. */
function* byLabel(
  label: string,
  totals: Readonly<Record<string, number>>,
): Generator<[Record<string, string>, number]> {
  for (const [value, total] of Object.entries(totals)) yield [{ [label]: value }, total];
}

/** One total, as followingCounter reads it. */
const single = (total: number): [Record<string, string>, number][] => [[{}, total]];

/**
 * A counter that follows totals kept elsewhere (the worker pool, shared memory, the request
 * tables) when scraped: each label set's total.
 */
function followingCounter(
  registry: Registry,
  o: { name: string; help: string; labelNames?: readonly string[] },
  read: () => Iterable<[Record<string, string>, number]>,
): void {
  const seen = new Map<string, number>();
  new Counter({
    name: o.name,
    help: o.help,
    labelNames: o.labelNames ?? [],
    registers: [registry],
    collect() {
      for (const [labels, total] of read()) {
        const key = Object.values(labels).join('\u0000');
        this.inc(labels, total - (seen.get(key) ?? 0));
        seen.set(key, total);
      }
    },
  });
}

function replayCounters(registry: Registry, i: InstanceSources): void {
  followingCounter(
    registry,
    {
      name: 'evgen_replay_prunes_total',
      help: 'Pruning passes over the replay record (each instance serving calls deletes expired entries at most once a second)',
    },
    () => single(i.replay().prunes),
  );
  followingCounter(
    registry,
    {
      name: 'evgen_replay_pruned_entries_total',
      help: 'Replay record entries deleted because their timestamp window had passed',
    },
    () => single(i.replay().pruned),
  );
}
