// "Service vs bare node:http per core": the reference service against a bare node:http server
// writing the same response bytes, each pinned to one core with the load generator (wrk) on
// another, at 32 connections of signed GetEventDetails7 requests (each signed once). The default
// configuration and `--workers 0`, in alternating rounds with the bare server, so each ratio
// compares runs next to each other; with the server's CPU per request split by thread (request
// loop, workers, the rest) and the kernel's part of it, which is what explains the ratio on a
// shared machine where the rates themselves move. The other single-record reads (GetEventDetails3,
// GetBooking, GetBookingDetails, GetContact, GetContact2) follow, each in the default
// configuration and with `--workers 0`, against the bare server writing their own answer.
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { startServer, withTempDir, type ServerConfig, type ServerInfo } from './children.js';
import { median } from './measure.js';
import { request, run, type Pinning, type RunFigures } from './servers.js';

/** The small call the issue measured; every configuration runs for it. */
const OPERATION = 'GetEventDetails7';

/**
 * The other single-record reads, each in the default configuration and with `--workers 0`: the
 * request's parameters for the seeded record the server names (ServerInfo).
 */
export const SINGLE_RECORD_READS: readonly {
  readonly operation: string;
  readonly params: (info: ServerInfo) => string;
}[] = [
  { operation: 'GetEventDetails3', params: (i) => `<eventId>${i.eventId}</eventId>` },
  { operation: 'GetBooking', params: (i) => `<bookingId>${i.bookingId}</bookingId>` },
  { operation: 'GetBookingDetails', params: (i) => `<bookingId>${i.bookingId}</bookingId>` },
  { operation: 'GetContact', params: (i) => `<email>${i.contactEmail}</email>` },
  { operation: 'GetContact2', params: (i) => `<emailAddress>${i.contactEmail}</emailAddress>` },
];
/** The server on the first core, the load generator on the second (as the issue measured). */
export const PER_CORE_PIN: Pinning = { server: '0', load: '1' };

export interface PerCoreSide {
  /** What the row calls this configuration. */
  readonly name: string;
  /** Worker threads per lane the service started with (0: the request loop serves). */
  readonly workers: number;
  /** Each round's run, and its ratio to the bare server's run of the same round. */
  readonly runs: readonly RunFigures[];
  readonly ratios: readonly number[];
  readonly ratio: number;
}

export interface PerCoreFigures {
  readonly operation: string;
  readonly pin: Pinning;
  readonly bare: readonly RunFigures[];
  readonly sides: readonly PerCoreSide[];
  /** The load average (1 minute) as the rows started and ended: other work on the machine. */
  readonly loadAverage: readonly [number, number];
}

/** Server CPU per request of a run, µs, by part (threads.ts's split; Linux only). */
export function cpuPerRequest(f: RunFigures): {
  total: number;
  loop?: number;
  workers?: number;
  other?: number;
  kernel?: number;
} {
  const requests = f.rps * f.seconds;
  const total = (f.serverCpu * f.seconds * 1e6) / requests;
  if (!f.split || !f.ticksPerSecond) return { total };
  const us = (ticks: number) => (ticks / f.ticksPerSecond!) * (1e6 / requests);
  return {
    total,
    loop: us(f.split.loop),
    workers: us(f.split.workers),
    other: us(f.split.other),
    kernel: us(f.split.kernel),
  };
}

type OursConfig = Extract<ServerConfig, { kind: 'ours' }>;
type Configs = readonly { readonly name: string; readonly extra: Partial<OursConfig> }[];

/** Every configuration of GetEventDetails7's rows. */
const CONFIGS: Configs = [
  { name: 'default', extra: {} },
  { name: '--workers 0', extra: { workers: 0 } },
  // The same reads from the database each time: what the read cache saves on a repeated read.
  { name: '--workers 0, read cache off', extra: { workers: 0, readCache: false } },
  // What the default did before small reads moved to the request loop: the hand-off's cost.
  { name: 'small reads on workers', extra: { smallReads: 'workers' } },
];

/**
 * `rounds` rounds of bare and each configuration for GetEventDetails7, then of bare, default and
 * `--workers 0` for each other single-record read; each server in a fresh pinned process for
 * `duration` seconds, on a database seeded by a first (unmeasured, unpinned) start.
 */
export async function benchPerCore(duration: number, rounds: number): Promise<PerCoreFigures[]> {
  const reads = [
    {
      operation: OPERATION,
      params: (i: ServerInfo) => `<eventId>${i.eventId}</eventId>`,
      configs: CONFIGS,
    },
    ...SINGLE_RECORD_READS.map((r) => ({ ...r, configs: CONFIGS.slice(0, 2) })),
  ];
  return withTempDir('evgen-per-core-', async (dir) => {
    const database = join(dir, 'events.sqlite');
    const prep = await startServer({ type: 'start', kind: 'ours', database, keys: 1 });
    // Each read's parameters and answer, from the seeded database; the bare server writes it.
    const asked: { params: string; fixed: string }[] = [];
    try {
      for (const r of reads) {
        const params = r.params(prep.info);
        asked.push({
          params,
          fixed: await request(prep.info, r.operation, params).send(prep.info.keys[0]!),
        });
      }
    } finally {
      await prep.stop();
    }
    const figures: PerCoreFigures[] = [];
    for (const [i, r] of reads.entries()) {
      const { params, fixed } = asked[i]!;
      figures.push(
        await perCoreOf(r.operation, params, fixed, r.configs, database, duration, rounds),
      );
    }
    return figures;
  });
}

/** Rounds of the bare server answering `fixed` and of each configuration, for one operation. */
async function perCoreOf(
  operation: string,
  params: string,
  fixed: string,
  configs: Configs,
  database: string,
  duration: number,
  rounds: number,
): Promise<PerCoreFigures> {
  const loadAtStart = loadavg()[0]!;
  const serve = (config: ServerConfig) =>
    run(config, operation, params, duration, { pin: PER_CORE_PIN });
  const bare: RunFigures[] = [];
  const runs: RunFigures[][] = configs.map(() => []);
  for (let i = 0; i < rounds; i++) {
    bare.push(await serve({ type: 'start', kind: 'bare', body: fixed }));
    for (const [k, c] of configs.entries())
      runs[k]!.push(await serve({ type: 'start', kind: 'ours', database, keys: 3, ...c.extra }));
  }
  const sides = configs.map((c, k) => {
    const ratios = runs[k]!.map((f, i) => f.rps / bare[i]!.rps);
    return {
      name: c.name,
      workers: runs[k]![0]!.workers ?? 0,
      runs: runs[k]!,
      ratios,
      ratio: median(ratios),
    };
  });
  return {
    operation,
    pin: PER_CORE_PIN,
    bare,
    sides,
    loadAverage: [loadAtStart, loadavg()[0]!],
  };
}

/** Whether this machine can pin a server and its load generator to cores of their own. */
export const canPin = () => availableParallelism() >= 2 && process.platform === 'linux';
