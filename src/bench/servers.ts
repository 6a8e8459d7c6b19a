// The server and client figures: the reference service against a bare node:http server answering
// a fixed body of the same size (the ceiling) and node-soap serving the same operation from the
// same WSDL with the same data; then calls per second of the generated client and node-soap's.
//
// Who shares what (2 cores): each server runs in a fresh process of its own (server-child.ts), so
// its peak RSS is that of one load run; during a load run only the server and the load worker
// (load-worker.mjs) are busy, the bench process waits. During the client figures only the bench
// process (the client) and the reference service are busy.
import { join } from 'node:path';
import { EventServiceClient } from '@evgen/event-management/client';
import {
  startServer,
  withTempDir,
  type ServerConfig,
  type ServerInfo,
  type Usage,
} from './children.js';
import { pairedWorkAlone, type WorkAlone } from './alone.js';
import { benchClient, type ClientFigures } from './client.js';
import { benchProxy, type ProxyFigures } from './proxy.js';
import { load, type Generator, type Key, type LoadFigures } from './load.js';
import { alternate, medianBy, roundRatios } from './measure.js';
import { increasingTimestamps, signTemplate, soapHeaders, soapTemplate } from './soap.js';
import {
  cpuSplit,
  threadShares,
  threadTimes,
  type CpuSplit,
  type ThreadShares,
} from './threads.js';

const PATH = '/API/1_0/SOAP/ServiceAPI.asmx';
const CONNECTIONS = 32;

export interface RunFigures extends LoadFigures {
  /** Server RSS just before the load (after the warm-up), its peak until then, bytes. */
  readonly rssBefore: number;
  readonly peakRssBefore: number;
  /** Server peak RSS during the load alone (VmHWM, reset as the load starts), bytes. */
  readonly peakRss: number;
  /** Server CPU time during the load ÷ its duration (1 = one core busy throughout). */
  readonly serverCpu: number;
  /** Load generator CPU time ÷ the load's duration. */
  readonly loadCpu: number;
  /** Shares of the server's CPU during the load by thread (threads.ts; Linux only). */
  readonly threads?: ThreadShares;
  /** Clock ticks of the server's request loop, workers, other threads and kernel (Linux only). */
  readonly split?: CpuSplit;
  /** Ticks per second of `split` (USER_HZ). */
  readonly ticksPerSecond?: number;
  /** How long the load ran, s. */
  readonly seconds: number;
  /** Ours: worker threads per lane the service started with. */
  readonly workers?: number;
}

/**
 * Two servers measured in alternating rounds (a, b, a, b…): each side's median round by rate, and
 * the median of the rounds' own ratios a/b. A single run each, one after the other, gave ratios
 * that moved widely as other work on the machine came and went; runs next to each other share
 * more of the same conditions.
 */
export interface Paired {
  readonly a: RunFigures;
  readonly b: RunFigures;
  readonly ratio: number;
  /** a/b of each round, in order. */
  readonly ratios: readonly number[];
  /** Every run of both sides (a load run with failed requests makes the bench run invalid). */
  readonly runs: readonly RunFigures[];
}

export interface ServerFigures {
  readonly operation: string;
  readonly responseBytes: number;
  readonly ours: RunFigures;
  readonly bare: RunFigures;
  /** The generated server alone (a: a fixed in-memory answer, full authentication) and node-soap (b). */
  readonly stubVsNodeSoap: Paired;
  /** GetBookingsBatch: --workers 2 (a) and 1 (b); GetEventDetails7: replay protection off. */
  readonly workers?: Paired;
  /** GetBookingsBatch: the same work without HTTP on two threads against one (alone.ts). */
  readonly workAlone?: WorkAlone;
  /** GetEventDetails7: the default service (a) against replay protection off (b). */
  readonly replayOff?: Paired;
}

/**
 * The most `cores` can serve against the one-worker run `one`, from that run's own CPU (server and
 * load generator, in cores): were every request to cost as much with more workers as with one,
 * all cores busy would serve cores ÷ (cores `one` kept busy) times its rate. What workers contend
 * for (caches, memory, the database's locks) only lowers it, so a target above it cannot be met
 * with the load generator on the same machine.
 */
export function workersCeiling(one: RunFigures, cores: number): number {
  const busy = one.serverCpu + one.loadCpu;
  if (!(busy > 0)) throw new RangeError(`workersCeiling: no CPU measured (${busy})`);
  return cores / busy;
}

/** The round whose rate is the median of the rounds' (the upper one of an even count). */
export const medianRun = (runs: readonly RunFigures[]): RunFigures => medianBy(runs, (r) => r.rps);

/** The figures of paired rounds: `as[i]` and `bs[i]` ran next to each other. */
export function pairFigures(as: readonly RunFigures[], bs: readonly RunFigures[]): Paired {
  const { ratio, ratios } = roundRatios(as, bs, (r) => r.rps);
  return { a: medianRun(as), b: medianRun(bs), ratio, ratios, runs: [...as, ...bs] };
}

/** `rounds` alternating pairs of runs (a first in each). */
const paired = async (
  rounds: number,
  a: () => Promise<RunFigures>,
  b: () => Promise<RunFigures>,
): Promise<Paired> => pairFigures(...(await alternate(rounds, a, b)));

/** The bare server loaded by both generators: is the generator the bottleneck at the ceiling? */
export interface GeneratorCheck {
  readonly operation: string;
  readonly wrk: RunFigures;
  readonly autocannon: RunFigures;
}

export type { ClientFigures };

/** The template the load generators fill in, and single requests signed here. */
export function request(info: ServerInfo, operation: string, params: string) {
  const body = soapTemplate(info.ns, operation, params);
  const headers = soapHeaders(info.ns, operation);
  const nextTimestamp = increasingTimestamps();
  const signed = (key: Key) => signTemplate(body, operation, key, nextTimestamp());
  const send = async (key: Key) => {
    const res = await fetch(`${info.url}${PATH}`, { method: 'POST', headers, body: signed(key) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${operation} at ${info.url}: HTTP ${res.status}`);
    return text;
  };
  return { body, headers, send };
}

// node-soap and the bare server check no signatures; they get requests signed the same way.
const UNCHECKED: Key[] = [0, 1, 2].map((i) => ({
  apiKey: `ak_unchecked${i}`,
  secretKey: `unchecked${i}`,
}));

/** Where a run's server and load generator are kept: taskset(1) CPU lists. */
export interface Pinning {
  readonly server: string;
  readonly load: string;
}

/** Linux's USER_HZ: the unit of /proc's utime and stime. */
const USER_HZ = 100;

/**
 * One load run against a fresh server process: load figures, its RSS and its CPU share. A fresh
 * process is cold, so it first gets a second of 8 concurrent requests from here, not measured.
 * Keys: the first for the warm-up, the others for the load generator's threads.
 */
export async function run(
  config: ServerConfig,
  operation: string,
  params: string,
  duration: number,
  o: { generator?: Generator; pin?: Pinning } = {},
): Promise<RunFigures> {
  const server = await startServer(config, o.pin?.server);
  try {
    const [warmKey, ...keys] = server.info.keys.length ? server.info.keys : UNCHECKED;
    const req = request(server.info, operation, params);
    const end = Date.now() + 1000;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() < end) await req.send(warmKey!);
      }),
    );
    const before = await server.usage(true);
    const timesBefore = threadTimes(server.pid);
    const fig = await load(
      {
        url: server.info.url,
        path: PATH,
        headers: req.headers,
        body: req.body,
        operation,
        keys,
        connections: CONNECTIONS,
        duration,
        ...(o.pin ? { cpus: o.pin.load } : {}),
      },
      o.generator,
    );
    const timesAfter = threadTimes(server.pid);
    const pid = String(server.pid);
    const ticks = (m: typeof timesAfter) =>
      m && new Map([...m].map(([tid, t]) => [tid, t.user + t.system]));
    const threads = threadShares(ticks(timesBefore), ticks(timesAfter), pid);
    const workerTids = new Set((server.info.workerTids ?? []).map(String));
    const split = timesBefore && timesAfter && cpuSplit(timesBefore, timesAfter, pid, workerTids);
    const after: Usage = await server.stop();
    const ms = duration * 1000;
    return {
      ...fig,
      ...(threads === undefined ? {} : { threads }),
      ...(split === undefined ? {} : { split, ticksPerSecond: USER_HZ }),
      seconds: duration,
      ...(server.info.workers === undefined ? {} : { workers: server.info.workers }),
      rssBefore: before.rss,
      peakRssBefore: before.peakRss,
      peakRss: after.peakRss,
      serverCpu: (after.cpuMs - before.cpuMs) / ms,
      loadCpu: fig.cpuMs / ms,
    };
  } finally {
    await server.stop().catch(() => undefined);
  }
}

export async function benchServers(
  duration: number,
  rounds: number,
): Promise<{
  servers: ServerFigures[];
  client: ClientFigures;
  proxy: ProxyFigures;
  generatorCheck: GeneratorCheck | undefined;
}> {
  return withTempDir('evgen-bench-', async (dir) => {
    const dbPath = join(dir, 'events.sqlite');
    // The first server seeds the database; the real answers it gives are what the bare server
    // serves verbatim and (decoded) what node-soap serves. Then the client figures against it.
    // A key per user, so no two sources of timestamps share one: raw answers, decoded answers,
    // then the generated client and node-soap's client.
    const prep = await startServer({ type: 'start', kind: 'ours', database: dbPath, keys: 5 });
    const { eventId } = prep.info;
    let client: ClientFigures;
    let proxy: ProxyFigures;
    const cases: {
      operation: string;
      params: string;
      fixed: string;
      /** As node-soap takes it, and as the generated server's handler returns it. */
      result: unknown;
      value: unknown;
    }[] = [];
    try {
      const { info } = prep;
      const [raw, decoded] = info.keys as [Key, Key];
      const generated = new EventServiceClient({
        baseUrl: info.url,
        apiKey: decoded.apiKey,
        secretKey: decoded.secretKey,
      });
      const details = await generated.getEventDetails7({ eventId });
      const batch = await generated.getBookingsBatch({ eventId, skip: 0, size: 100 });
      for (const [operation, params, result, value] of [
        ['GetEventDetails7', `<eventId>${eventId}</eventId>`, details, details],
        [
          'GetBookingsBatch',
          `<eventId>${eventId}</eventId><skip>0</skip><size>100</size>`,
          { BookingResponse: batch },
          batch,
        ],
      ] as const) {
        cases.push({
          operation,
          params,
          fixed: await request(info, operation, params).send(raw),
          result,
          value,
        });
      }
      console.error('  client figures…');
      client = await benchClient({ ...info, keys: info.keys.slice(2, 4) }, duration);
      console.error('  GetEventDetails7 directly and through evgen proxy…');
      proxy = await benchProxy(info, info.keys[4]!, duration, rounds > 1 ? 5 : 3);
    } finally {
      await prep.stop();
    }

    const servers: ServerFigures[] = [];
    for (const c of cases) {
      console.error(
        `  ${c.operation}: ours, bare node:http, then the stub and node-soap (${rounds} rounds)…`,
      );
      // Every server of this case under the same load: the case's operation, for `duration`.
      const serve = (config: ServerConfig) => run(config, c.operation, c.params, duration);
      const oursWith = (extra: Partial<Extract<ServerConfig, { kind: 'ours' }>> = {}) =>
        serve({ type: 'start', kind: 'ours', database: dbPath, keys: 3, ...extra });
      const ours = await oursWith();
      const bare = await serve({ type: 'start', kind: 'bare', body: c.fixed });
      const stubVsNodeSoap = await paired(
        rounds,
        () =>
          serve({ type: 'start', kind: 'stub', operation: c.operation, result: c.value, keys: 3 }),
        () => serve({ type: 'start', kind: 'nodeSoap', operation: c.operation, result: c.result }),
      );
      const more =
        c.operation === 'GetBookingsBatch'
          ? {
              workers: await paired(
                rounds,
                () => oursWith({ workers: 2 }),
                () => oursWith({ workers: 1 }),
              ),
              workAlone: await pairedWorkAlone(rounds, dbPath, eventId, duration),
            }
          : {
              // The default service again, next to each run without replay protection.
              replayOff: await paired(
                rounds,
                () => oursWith(),
                () => oursWith({ replay: 'off' }),
              ),
            };
      servers.push({
        operation: c.operation,
        responseBytes: Buffer.byteLength(c.fixed),
        ours,
        bare,
        stubVsNodeSoap,
        ...more,
      });
    }
    let generatorCheck: GeneratorCheck | undefined;
    const first = cases[0]!;
    if (servers[0]!.bare.generator === 'wrk') {
      console.error(`  ${first.operation}: bare node:http again, load from autocannon…`);
      const autocannon = await run(
        { type: 'start', kind: 'bare', body: first.fixed },
        first.operation,
        first.params,
        duration,
        { generator: 'autocannon' },
      );
      generatorCheck = { operation: first.operation, wrk: servers[0]!.bare, autocannon };
    }
    return { servers, client, proxy, generatorCheck };
  });
}
