// "Service vs bare node:http per core": the reference service against a bare node:http server
// writing the same response bytes, each pinned to one core with the load generator (wrk) on
// another, at 32 connections of signed GetEventDetails7 requests (each signed once). The default
// configuration and `--workers 0`, in alternating rounds with the bare server, so each ratio
// compares runs next to each other; with the server's CPU per request split by thread (request
// loop, workers, the rest) and the kernel's part of it, which is what explains the ratio on a
// shared machine where the rates themselves move.
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { startServer, withTempDir, type ServerConfig } from './children.js';
import { median } from './measure.js';
import { request, run, type Pinning, type RunFigures } from './servers.js';

const OPERATION = 'GetEventDetails7';
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

/**
 * `rounds` rounds of bare, default and `--workers 0`, each server in a fresh pinned process for
 * `duration` seconds, on a database seeded by a first (unmeasured, unpinned) start.
 */
export async function benchPerCore(duration: number, rounds: number): Promise<PerCoreFigures> {
  const loadAtStart = loadavg()[0]!;
  return withTempDir('evgen-per-core-', async (dir) => {
    const database = join(dir, 'events.sqlite');
    const prep = await startServer({ type: 'start', kind: 'ours', database, keys: 1 });
    let fixed: string;
    let params: string;
    try {
      params = `<eventId>${prep.info.eventId}</eventId>`;
      fixed = await request(prep.info, OPERATION, params).send(prep.info.keys[0]!);
    } finally {
      await prep.stop();
    }
    const serve = (config: ServerConfig) =>
      run(config, OPERATION, params, duration, { pin: PER_CORE_PIN });
    const ours = (extra: Partial<Extract<ServerConfig, { kind: 'ours' }>> = {}): ServerConfig => ({
      type: 'start',
      kind: 'ours',
      database,
      keys: 3,
      ...extra,
    });
    const configs = [
      { name: 'default', config: ours() },
      { name: '--workers 0', config: ours({ workers: 0 }) },
      // The same reads from the database each time: what the read cache saves on a repeated read.
      { name: '--workers 0, read cache off', config: ours({ workers: 0, readCache: false }) },
      // What the default did before small reads moved to the request loop: the hand-off's cost.
      { name: 'small reads on workers', config: ours({ smallReads: 'workers' }) },
    ];
    const bare: RunFigures[] = [];
    const runs: RunFigures[][] = configs.map(() => []);
    for (let i = 0; i < rounds; i++) {
      bare.push(await serve({ type: 'start', kind: 'bare', body: fixed }));
      for (const [k, c] of configs.entries()) runs[k]!.push(await serve(c.config));
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
      operation: OPERATION,
      pin: PER_CORE_PIN,
      bare,
      sides,
      loadAverage: [loadAtStart, loadavg()[0]!],
    };
  });
}

/** Whether this machine can pin a server and its load generator to cores of their own. */
export const canPin = () => availableParallelism() >= 2 && process.platform === 'linux';
