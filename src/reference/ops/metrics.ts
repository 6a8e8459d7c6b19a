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
import type { PoolCounts, ReplayTotals } from './instance-stats.js';

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

/** `make`'s value for each list of label values, made once. */
function children<A extends string[], C>(make: (...values: A) => C): (...values: A) => C {
  const made = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = made.get(key);
    if (child === undefined) made.set(key, (child = make(...values)));
    return child;
  };
}

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
  /** The record is SQLite's, whose write-ahead log the upkeep checkpoints. */
  readonly checkpoints: boolean;
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
  // Each label set's child, kept: labels() builds and checks a labels object on every call
  // otherwise (a child still hashes its labels at each inc or observe). The label values are
  // bounded (above), so these maps are too.
  const counted = children((op: string, binding: string, outcome: string) =>
    requests.labels(op, binding, outcome),
  );
  const timed = children((op: string) => latency.labels(op));
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
      counted(operation, bounded(BINDINGS, r.binding), outcome).inc();
      timed(operation).observe(r.durationMs / 1000);
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
      label: 'lane',
    },
    () => {
      const now = lanes();
      return Object.fromEntries(LANES.map((lane) => [lane, now[lane].restarts]));
    },
  );
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

/**
 * A counter that follows totals kept elsewhere (the worker pool, shared memory) when scraped: by
 * the values of `label`, or one total when there is none.
 */
function followingCounter(
  registry: Registry,
  o: { name: string; help: string; label?: string },
  read: () => number | Readonly<Record<string, number>> | undefined,
): void {
  const seen = new Map<string, number>();
  new Counter({
    name: o.name,
    help: o.help,
    labelNames: o.label ? [o.label] : [],
    registers: [registry],
    collect() {
      const now = read();
      const totals = typeof now === 'number' ? { '': now } : (now ?? {});
      for (const [value, total] of Object.entries(totals)) {
        this.inc(o.label ? { [o.label]: value } : {}, total - (seen.get(value) ?? 0));
        seen.set(value, total);
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
    () => i.replay().prunes,
  );
  followingCounter(
    registry,
    {
      name: 'evgen_replay_pruned_entries_total',
      help: 'Replay record entries deleted because their timestamp window had passed',
    },
    () => i.replay().pruned,
  );
  // PostgreSQL checkpoints its own log (pg_stat_bgwriter).
  if (i.checkpoints)
    followingCounter(
      registry,
      {
        name: 'evgen_replay_checkpoints_total',
        help: "Completed checkpoints of the SQLite replay record's write-ahead log: passive (every pruning pass), restart (the log past its limit, started again)",
        label: 'mode',
      },
      () => i.replay().checkpoints,
    );
}
