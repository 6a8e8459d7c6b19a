// `npm run bench`: generator, codecs, server, client and memory, each next to a baseline measured
// in the same run; prints one table and writes it as JSON for comparison across commits.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeSoapMessage } from '@evgen/runtime/internal';
import { operations } from '@evgen/event-management/operations';
import { compareOutput } from '../generator/output.js';
import { generateFiles } from '../generator/pipeline.js';
import { EVGEN_BIN, childCommand } from './entries.js';
import { benchCodecs } from './codecs.js';
import { benchSignature } from './signature.js';
import { median } from './measure.js';
import { bookings } from './samples.js';
import { SETUPS, benchScale } from './scale.js';
import { benchReference } from './size.js';
import { benchServers, workersCeiling, type RunFigures } from './servers.js';
import { resultsRegion, writeResults, type Row } from './results-page.js';
import { benchPerCore, canPin, cpuPerRequest, type PerCoreFigures } from './per-core.js';

/** The bench's parts, in the order they run; `--only` picks some of them. */
export const BENCH_PARTS = [
  'generator',
  'codecs',
  'signature',
  'memory',
  'size',
  'servers',
  'per-core',
  'scale',
] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

/** The parts a comma-separated `--only` list names (all when undefined); refuses unknown ones. */
export function benchParts(only: string | undefined): ReadonlySet<BenchPart> {
  if (only === undefined) return new Set(BENCH_PARTS);
  const names = only.split(',').map((x) => x.trim());
  const unknown = names.filter((x) => !(BENCH_PARTS as readonly string[]).includes(x));
  if (unknown.length || names.length === 0)
    throw new Error(
      `--only: unknown part ${unknown.join(', ')} (parts: ${BENCH_PARTS.join(', ')})`,
    );
  return new Set(names as BenchPart[]);
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const exec = promisify(execFile);

async function timeIt(fn: () => Promise<unknown>, runs = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

async function memory(n: number) {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-mem-'));
  const file = join(dir, 'response.xml');
  const ns = 'https://127.0.0.1/API/1_0/SOAP/';
  await writeFile(
    file,
    writeSoapMessage('1.1', undefined, (out) =>
      operations.GetBookings.encodeSoapResponse(bookings(n), ns, out),
    ).bytes(),
  );
  const { args, env } = childCommand('memory-child');
  const { stdout } = await exec('node', [...args, file, ns], {
    cwd: ROOT,
    env,
    maxBuffer: 1 << 20,
  });
  await rm(dir, { recursive: true, force: true });
  return JSON.parse(stdout) as { bytes: number; baselineRss: number; peakRss: number };
}

export async function runBench(o: {
  quick: boolean;
  out: string;
  /** The page whose results region the run's table replaces. */
  page: string | undefined;
  /** The parts to run (default all). */
  parts?: ReadonlySet<BenchPart>;
}): Promise<void> {
  const want = (part: BenchPart) => o.parts?.has(part) ?? true;
  const loadAtStart = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const rows: [string, string, string, string][] = [];
  const r = (x: number) => x.toFixed(x >= 100 ? 0 : x >= 10 ? 1 : 2);
  const add = (what: string, ours: string, base: string, ratio: string) => (
    rows.push([what, ours, base, ratio]),
    console.error(`  ${what}: ${ours} | ${base} | ${ratio}`)
  );

  if (want('generator')) await generatorRows(add, r);
  const codecs: Record<string, unknown>[] = [];
  if (want('codecs')) codecs.push(...(await codecRows(o.quick, add, r)));
  const sig =
    want('signature') || want('servers') ? await signatureRows(o.quick, add, r) : undefined;
  const mem = want('memory') ? await memoryRows(add, r) : undefined;
  const size = want('size') ? await sizeRows(o.quick, add, r) : undefined;
  const duration = o.quick ? 3 : 8;
  const rounds = o.quick ? 1 : 3;
  const served = want('servers') ? await serverRows(duration, rounds, sig!, add, r) : undefined;
  const servers = served?.servers ?? [];
  const perCore = want('per-core') ? await perCoreRows(o.quick, add, r) : undefined;
  const scale = want('scale') ? await scaleRows(duration, add, r) : undefined;
  const generator = servers[0]?.ours.generator ?? perCore?.[0]?.bare[0]?.generator;
  const { generatorCheck, client, proxy } = served ?? {};
  const header: Row = ['measure', 'ours', 'baseline', 'ratio'];
  const width = header.map((h, i) => Math.max(h.length, ...rows.map((x) => x[i]!.length)));
  const line = (x: Row) => `| ${x.map((c, i) => c.padEnd(width[i]!)).join(' | ')} |`;
  console.log(
    [line(header), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join(
      '\n',
    ),
  );
  // Other work on the machine changes every figure: the load average says how much there was.
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average at the end ${load} (started at ${loadAtStart})`;
  const only =
    o.parts && o.parts.size < BENCH_PARTS.length ? `, only ${[...o.parts].join(', ')}` : '';
  const about = `Measured on ${machine}${o.quick ? ' (quick run)' : ''}${only}; server load from ${generator ?? 'none'}.`;
  console.log(`\n${about}`);
  if (generator !== undefined && generator !== 'wrk')
    console.log(
      "wrk is not installed (apt-get install wrk): autocannon itself becomes the limit near the bare server's rate, so the bare node:http ceiling is understated",
    );
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(
    o.out,
    `${JSON.stringify({ machine, quick: o.quick, rows, codecs, memory: mem, size, servers, generatorCheck, client, proxy, perCore, scale }, null, 2)}\n`,
  );
  console.log(`written to ${o.out}`);
  if (o.page) {
    await writeResults(o.page, resultsRegion(rows, about));
    console.log(`table written to ${o.page}`);
  }
  // A load run with refused or failed requests measured something else than the service working.
  const invalid = servers.flatMap((s) => {
    const sides: [string, readonly RunFigures[]][] = [
      ['ours', [s.ours]],
      ['bare', [s.bare]],
      ['stub, node-soap', s.stubVsNodeSoap.runs],
      ['--workers 2, 1', s.workers?.runs ?? []],
      ['default, replay off', s.replayOff?.runs ?? []],
    ];
    return sides
      .filter(([, runs]) => runs.some((f) => f.non2xx + f.errors > 0))
      .map(([k]) => `${s.operation} ${k}`);
  });
  for (const [op, row] of Object.entries(scale?.reads ?? {}))
    for (const s of SETUPS) if (row[s].bad > 0) invalid.push(`${op} ${s}`);
  for (const s of SETUPS) if (scale && scale.bookings[s].refused > 0) invalid.push(`bookings ${s}`);
  for (const f of perCore ?? [])
    if ([...f.bare, ...f.sides.flatMap((s) => s.runs)].some((x) => x.non2xx + x.errors > 0))
      invalid.push(`${f.operation} per core`);
  if (invalid.length) {
    console.error(`not a valid run: non-2xx answers or errors in ${invalid.join(', ')}`);
    process.exitCode = 1;
  }
}

type Add = (what: string, ours: string, base: string, ratio: string) => void;
type Fmt = (x: number) => string;
const pct = (x: number) => `${Math.round(x * 100)}%`;

async function generatorRows(add: Add, r: Fmt) {
  console.error('generator…');
  const spec = { specDir: join(ROOT, 'spec'), templatesDir: join(ROOT, 'templates') };
  const gen = await timeIt(() => generateFiles(spec));
  const check = await timeIt(() => exec('node', [EVGEN_BIN, 'check'], { cwd: ROOT }));
  const inMemoryCheck = await timeIt(async () =>
    compareOutput(join(ROOT, 'generated'), await generateFiles(spec)),
  );
  add('evgen generate (in memory, median of 3)', `${r(gen / 1000)} s`, '', '');
  add(
    'evgen check (whole command, median of 3)',
    `${r(check / 1000)} s`,
    `${r(inMemoryCheck / 1000)} s in process`,
    'target < 3 s',
  );
}

async function codecRows(quick: boolean, add: Add, r: Fmt) {
  const codecs: Record<string, unknown>[] = [];
  for (const n of quick ? [1_000] : [1_000, 10_000]) {
    console.error(`codecs, ${n} bookings…`);
    const c = await benchCodecs(n, quick);
    codecs.push({ ...c });
    const mb = (c.bytes / 1e6).toFixed(1);
    add(
      `decode GetBookings ${n} (${mb} MB) vs fast-xml-parser parse`,
      `${r(c.decodeMBs)} MB/s`,
      `${r(c.fxpParseMBs)} MB/s`,
      `${r(c.decodeMBs / c.fxpParseMBs)}x (target 6x)`,
    );
    add(
      `decode GetBookings ${n} vs saxes tokenising alone`,
      `${r(c.decodeMBs)} MB/s`,
      `${r(c.saxesMBs)} MB/s`,
      `${r(c.decodeMBs / c.saxesMBs)}x (target 0.6x)`,
    );
    add(
      `encode GetBookings ${n} vs fast-xml-parser XMLBuilder`,
      `${r(c.encodeMBs)} MB/s`,
      `${r(c.fxpBuildMBs)} MB/s`,
      `${r(c.encodeMBs / c.fxpBuildMBs)}x (target 2.5x)`,
    );
  }
  return codecs;
}

async function signatureRows(quick: boolean, add: Add, r: Fmt) {
  console.error('signature (HMAC-SHA1 through the platform)…');
  const sig = await benchSignature(quick);
  add(
    'HMAC-SHA1 Signature, one awaited: Web Crypto (browsers) vs node:crypto (server, Node clients)',
    `${r(sig.webCryptoUs)} µs`,
    `${r(sig.nodeUs)} µs`,
    `${r(sig.ratio)}x (median of ${sig.ratios.map((x) => r(x)).join(', ')})`,
  );
  return sig;
}

async function memoryRows(add: Add, r: Fmt) {
  console.error('memory…');
  const mem = await memory(10_000);
  const over = mem.peakRss - mem.baselineRss;
  add(
    `peak RSS decoding 10000 bookings (${(mem.bytes / 1e6).toFixed(1)} MB)`,
    `+${r(over / 1e6)} MB`,
    `${r(mem.bytes / 1e6)} MB document`,
    `${r(over / mem.bytes)}x size (target < 5x)`,
  );
  return mem;
}

async function sizeRows(quick: boolean, add: Add, r: Fmt) {
  console.error('reference service at size (evgen seed; 3,000 and 100,000 bookings)…');
  const size = await benchReference(quick);
  add(
    `evgen seed ${size.seed.bookings.toLocaleString('en')} bookings on 2 events (whole command)`,
    `${r(size.seed.seconds)} s`,
    '',
    size.seed.bookings === 1_000_000 ? 'target < 60 s' : 'target < 60 s at 1,000,000',
  );
  const [small, large] = size.pageCost;
  add(
    'GetBookingsBatch(100) server-side: 100,000 vs 3,000 bookings',
    `${r(large!.batch100Ms)} ms`,
    `${r(small!.batch100Ms)} ms`,
    `${r(large!.batch100Ms / small!.batch100Ms)}x (target < 1.3x)`,
  );
  add(
    'GetBookings page (1000) server-side: 100,000 vs 3,000 bookings',
    `${r(large!.page1000Ms)} ms`,
    `${r(small!.page1000Ms)} ms`,
    `${r(large!.page1000Ms / small!.page1000Ms)}x (target < 1.3x)`,
  );
  add(
    'GetBookings page (1000, 3 MB) over HTTP, worker threads, 100,000 bookings',
    `${r(size.pageOverHttpMs)} ms`,
    '',
    'target < 60 ms',
  );
  const [before, after] = size.underLoad;
  add(
    'GetEventDetails7 while 4 clients pull 1000-booking pages: worker threads vs request loop',
    `p99 ${r(after!.p99)} ms, p50 ${r(after!.p50)} ms (${r(after!.pagesPerSec)} pages/s)`,
    `p99 ${r(before!.p99)} ms, p50 ${r(before!.p50)} ms (${r(before!.pagesPerSec)} pages/s)`,
    `target p99 < 50 ms`,
  );
  add(
    '0.87 MB body of 88,000 distinct names, no AuthenticationHeader: refused in',
    `${r(size.manyNamesMs)} ms`,
    '',
    'target < 50 ms',
  );
  return size;
}

async function serverRows(
  duration: number,
  roundCount: number,
  sig: Awaited<ReturnType<typeof benchSignature>>,
  add: Add,
  r: Fmt,
) {
  console.error('server and client (each server in its own process, load from another)…');
  const served = await benchServers(duration, roundCount);
  const { servers, client, proxy, generatorCheck } = served;
  const rounds = (p: { ratios: readonly number[] }) =>
    p.ratios.length > 1 ? ` (median of ${p.ratios.map((x) => r(x)).join(', ')})` : '';
  const cpuPerReq = (f: RunFigures) => `${r((f.serverCpu / f.rps) * 1e6)} µs CPU/req`;
  // Server CPU (100% = one core), its busiest thread's and its request loop's parts where /proc
  // tells, and the load generator's: with one worker the busiest thread is the limit, and the rest
  // is what two workers must also fit on the same two cores.
  const threadSplit = (f: RunFigures) =>
    f.threads === undefined
      ? ''
      : ` (busiest thread ${pct(f.serverCpu * f.threads.busiest)}, request loop ${pct(f.serverCpu * f.threads.main)})`;
  const cpuSplit = (f: RunFigures) =>
    `CPU ${pct(f.serverCpu)}${threadSplit(f)}, load ${pct(f.loadCpu)}`;
  // The cores the server and the load share: the bound on what more workers can add (servers.ts).
  const cores = availableParallelism();
  for (const s of servers) {
    const { a: stub, b: nodeSoap } = s.stubVsNodeSoap;
    add(
      `${s.operation} SOAP 1.1, 32 connections: ours vs bare node:http`,
      `${r(s.ours.rps)} req/s p50 ${r(s.ours.p50)} ms p99 ${r(s.ours.p99)} ms`,
      `${r(s.bare.rps)} req/s`,
      `${r(s.ours.rps / s.bare.rps)}x (target 0.5x)`,
    );
    add(
      `${s.operation} SOAP 1.1: ours vs node-soap server`,
      `${r(s.ours.rps)} req/s`,
      `${r(nodeSoap.rps)} req/s p99 ${r(nodeSoap.p99)} ms`,
      `${r(s.ours.rps / nodeSoap.rps)}x`,
    );
    // The fair comparison: the generated server with a fixed answer, as node-soap serves one,
    // but with full authentication (signature, window, replay store).
    add(
      `${s.operation}: generated server stub (fixed answer, authenticated) vs node-soap`,
      `${r(stub.rps)} req/s p99 ${r(stub.p99)} ms, ${cpuPerReq(stub)}`,
      `${r(nodeSoap.rps)} req/s, ${cpuPerReq(nodeSoap)}`,
      `${r(s.stubVsNodeSoap.ratio)}x${rounds(s.stubVsNodeSoap)} (target 3x)`,
    );
    // The server verifies one signature per request: its share of the stub's CPU per request.
    add(
      `${s.operation}: node:crypto HMAC-SHA1 verification vs the stub's CPU per request`,
      `${r(sig.nodeUs)} µs`,
      cpuPerReq(stub),
      `${pct(sig.nodeUs / ((stub.serverCpu / stub.rps) * 1e6))} of it`,
    );
    add(
      `${s.operation}: generated server stub vs bare node:http`,
      `${r(stub.rps)} req/s`,
      `${r(s.bare.rps)} req/s`,
      `${r(stub.rps / s.bare.rps)}x`,
    );
    if (s.workers)
      add(
        `${s.operation}(100), 32 connections: --workers 2 vs --workers 1`,
        `${r(s.workers.a.rps)} req/s p99 ${r(s.workers.a.p99)} ms, ${cpuSplit(s.workers.a)}`,
        `${r(s.workers.b.rps)} req/s p99 ${r(s.workers.b.p99)} ms, ${cpuSplit(s.workers.b)}`,
        `${r(s.workers.ratio)}x${rounds(s.workers)} (target 1.4x; ceiling here ${r(workersCeiling(s.workers.b, cores))}x)`,
      );
    if (s.workAlone)
      add(
        `${s.operation}(100) without HTTP, in process: 2 threads vs 1 (the most --workers 2 can give)`,
        `${r(s.workAlone.two)} calls/s`,
        `${r(s.workAlone.one)} calls/s`,
        `${r(s.workAlone.ratio)}x${rounds(s.workAlone)}`,
      );
    if (s.replayOff)
      add(
        `${s.operation}: replay record on (its log beside the database) vs replay protection off`,
        `${r(s.replayOff.a.rps)} req/s p99 ${r(s.replayOff.a.p99)} ms`,
        `${r(s.replayOff.b.rps)} req/s p99 ${r(s.replayOff.b.p99)} ms`,
        `${r(s.replayOff.ratio)}x${rounds(s.replayOff)}`,
      );
    const bad = (f: typeof s.ours) => f.non2xx + f.errors;
    if (bad(s.ours) || bad(nodeSoap) || bad(s.bare))
      add(
        `${s.operation} non-2xx answers and errors: ours vs node-soap, bare`,
        String(bad(s.ours)),
        `${bad(nodeSoap)}, ${bad(s.bare)}`,
        '',
      );
  }
  const mb = (bytes: number) => `${r(bytes / 1e6)} MB`;
  // Every server runs the compiled build under plain node; the bare server's RSS is that floor
  // (node, node:http), so the last row compares what each SOAP server holds above it.
  for (const s of servers.filter((x) => x.operation === 'GetBookingsBatch')) {
    const { ours, bare } = s;
    const nodeSoap = s.stubVsNodeSoap.b;
    const what = `server peak RSS, ${s.operation}(100) at 32 connections`;
    add(
      `${what}: ours vs node-soap`,
      `${mb(ours.peakRss)} (${mb(ours.rssBefore)} before)`,
      `${mb(nodeSoap.peakRss)} (${mb(nodeSoap.rssBefore)} before)`,
      `${r(ours.peakRss / nodeSoap.peakRss)}x`,
    );
    add(
      `${what}: ours vs bare node:http`,
      mb(ours.peakRss),
      `${mb(bare.peakRss)} (${mb(bare.rssBefore)} before)`,
      `${r(ours.peakRss / bare.peakRss)}x`,
    );
    add(
      `server peak RSS above bare node:http's: ours vs node-soap`,
      `+${mb(ours.peakRss - bare.peakRss)}`,
      `+${mb(nodeSoap.peakRss - bare.peakRss)}`,
      `${r((ours.peakRss - bare.peakRss) / (nodeSoap.peakRss - bare.peakRss))}x`,
    );
  }
  if (generatorCheck) {
    const { wrk, autocannon } = generatorCheck;
    add(
      `load generator check, bare node:http, ${generatorCheck.operation}: wrk vs autocannon`,
      `${r(wrk.rps)} req/s, server CPU ${pct(wrk.serverCpu)}`,
      `${r(autocannon.rps)} req/s, server CPU ${pct(autocannon.serverCpu)}, autocannon CPU ${pct(autocannon.loadCpu)}`,
      `${r(wrk.rps / autocannon.rps)}x`,
    );
  }
  add(
    'GetEventDetails7, 1 in flight: through evgen proxy vs directly',
    `p50 ${r(proxy.proxied.p50)} ms p99 ${r(proxy.proxied.p99)} ms (${proxy.proxied.calls} calls)`,
    `p50 ${r(proxy.direct.p50)} ms p99 ${r(proxy.direct.p99)} ms (${proxy.direct.calls} calls)`,
    `+${r(proxy.addedP50)} ms at p50 (median of ${proxy.rounds.map((x) => r(x)).join(', ')}; target < 2 ms)`,
  );
  add(
    'client GetEventDetails7, 8 in flight: ours vs node-soap client',
    `${r(client.oursCallsPerSec)} calls/s`,
    `${r(client.nodeSoapCallsPerSec)} calls/s`,
    `${r(client.oursCallsPerSec / client.nodeSoapCallsPerSec)}x`,
  );
  return served;
}

async function scaleRows(duration: number, add: Add, r: Fmt) {
  console.error('scaling out: 1 node SQLite, 1 node PostgreSQL, 2 nodes PostgreSQL…');
  const scale = await benchScale(duration);
  if (scale) {
    const [sqlite, pg1, pg2] = SETUPS;
    for (const [op, row] of Object.entries(scale.reads)) {
      const f = (s: (typeof SETUPS)[number]) =>
        `${r(row[s].rps)} req/s p50 ${r(row[s].p50)} ms p99 ${r(row[s].p99)} ms`;
      const what = `${op}${op === 'GetBookingsBatch' ? '(100)' : ''}, 32 connections`;
      add(
        `${what}: ${pg1} vs ${sqlite}`,
        f(pg1),
        f(sqlite),
        `${r(row[pg1].rps / row[sqlite].rps)}x`,
      );
      add(
        `${what}: ${pg2} (16 each) vs ${pg1}`,
        f(pg2),
        f(pg1),
        `${r(row[pg2].rps / row[pg1].rps)}x`,
      );
    }
    const b = (s: (typeof SETUPS)[number]) =>
      `${r(scale.bookings[s].perSec)}/s p50 ${r(scale.bookings[s].p50)} ms p99 ${r(scale.bookings[s].p99)} ms`;
    const per = (s: (typeof SETUPS)[number]) => scale.bookings[s].perSec;
    add(
      `bookings, 8 writers: ${pg1} vs ${sqlite}`,
      b(pg1),
      b(sqlite),
      `${r(per(pg1) / per(sqlite))}x`,
    );
    add(`bookings, 8 writers: ${pg2} vs ${pg1}`, b(pg2), b(pg1), `${r(per(pg2) / per(pg1))}x`);
  } else
    console.error(
      '  PostgreSQL server binaries not found (apt-get install postgresql): no scaling-out figures',
    );
  return scale;
}

async function perCoreRows(
  quick: boolean,
  add: Add,
  r: Fmt,
): Promise<PerCoreFigures[] | undefined> {
  if (!canPin()) {
    console.error('  per core: needs Linux and 2 cores to pin the server and the load apart');
    return undefined;
  }
  console.error('service vs bare node:http per core (server on core 0, wrk on core 1)…');
  const figures = await benchPerCore(quick ? 3 : 5, quick ? 1 : 3);
  const at = (xs: readonly RunFigures[], i: number) => xs[i]!;
  // The round whose ratio is the median's: its runs stand for both sides.
  const split = (x: RunFigures) => {
    const c = cpuPerRequest(x);
    const parts =
      c.loop === undefined
        ? ''
        : ` (request loop ${r(c.loop)}, workers ${r(c.workers!)}, other threads ${r(c.other!)}; kernel ${r(c.kernel!)} of it)`;
    return `${r(x.rps)} req/s, ${r(c.total)} µs CPU/req${parts}`;
  };
  for (const f of figures)
    for (const s of f.sides) {
      const i = s.ratios.indexOf(s.ratio);
      const target = { default: ' (target 0.3x)', '--workers 0': ' (target 0.4x)' }[s.name] ?? '';
      const cpu = cpuPerRequest(at(f.bare, i)).total / cpuPerRequest(at(s.runs, i)).total;
      add(
        `${f.operation} service vs bare node:http per core, ${s.name} (${s.workers} workers per lane), 32 connections`,
        split(at(s.runs, i)),
        split(at(f.bare, i)),
        `${r(s.ratio)}x req/s${s.ratios.length > 1 ? ` (median of ${s.ratios.map((x) => r(x)).join(', ')})` : ''}${target}; CPU per request ${r(cpu)}x`,
      );
    }
  return figures;
}
