// One anonymous client cannot take the service down. From one address (127.0.0.1) an attacker
// holds 600 slow requests (a chunked body at one byte a second) and 2,000 idle connections,
// opening again every one the server closes; meanwhile signed calls from another address
// (127.0.0.2) keep succeeding with p99 under 1 s (more than the same calls' p99 without the attack,
// measured first: what the attack costs, not what a busy machine does), and /healthz, asked from a
// third (127.0.0.3) as a load balancer would, answers 200 throughout. Before the per-client
// limits, the attacker filled the 512 connections and every other client, /healthz included, was
// refused.
// On the tier's backend: a SQLite file here, PostgreSQL in the pg tier (PG_MATRIX).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventServiceClient } from '@evgen/event-management/client';
import { newDatabase, type TestDatabase } from '../../support/backend.js';
import { fetchFrom } from '../../support/sockets.js';
import { serve, stop, type ServeProcess } from './serve-process.js';

const ATTACKER = fileURLToPath(new URL('../../support/attacker.mjs', import.meta.url));
const IDLE = 2_000;
const SLOW = 600;
/** Long enough for every time-out a slow or idle connection meets to pass, and refill. */
const ATTACK_SECONDS = 16;
/** Signed calls in flight at once from the other client. */
const CALLERS = 4;
/** How long the calls are timed without the attack, first. */
const BASELINE_SECONDS = 3;
/** How much the attack may add to the calls' p99. */
const ATTACK_SLACK_MS = 1_000;

/** The hard limit of open files, which Node raises the soft one to (Linux: /proc). */
function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const hard = line?.trim().split(/\s+/)[4];
  return hard === 'unlimited' ? Infinity : Number(hard);
}

let database: TestDatabase;
let node: ServeProcess;
beforeAll(async () => {
  database = await newDatabase();
  node = serve(database.target, '--workers', '1');
  await node.ready;
}, 120_000);
afterAll(async () => {
  await stop(node);
  await database.remove();
});

const percentile = (xs: number[], p: number): number | undefined =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** GET /healthz from `localAddress` on a new connection: its status, or 0 when refused or late. */
function probe(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(`${url}/healthz`, { localAddress, agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

it(`serves another client while one holds ${SLOW} slow and ${IDLE} idle connections`, async () => {
  // The attacker needs a descriptor per socket: far more than the usual soft limit of 1,024.
  expect(
    openFileLimit(),
    'the hard limit of open files (ulimit -Hn) must allow the attacker its sockets',
  ).toBeGreaterThanOrEqual(IDLE + SLOW + 512);
  const { url, key } = await node.ready;
  const fetch = fetchFrom('127.0.0.2');
  const client = new EventServiceClient({
    baseUrl: url,
    ...key!,
    fetch,
    binding: 'soap11',
    timeoutMs: 10_000,
  });
  const latencies: number[] = [];
  const failures: string[] = [];
  const probes: number[] = [];
  /** CALLERS calls at a time until `until`, their times into `into`. */
  const callUntil = (until: number, into: number[]) =>
    Array.from({ length: CALLERS }, async () => {
      while (Date.now() < until) {
        const started = performance.now();
        try {
          await client.getEventDetails7({ eventId: 1 });
          into.push(performance.now() - started);
        } catch (e) {
          failures.push((e as Error).message);
        }
      }
    });
  // The same calls without the attack first: what this machine gives them now, once warm (the
  // first calls open the database's connections and compile the code they run).
  await Promise.all(callUntil(Date.now() + 1_000, []));
  const baseline: number[] = [];
  await Promise.all(callUntil(Date.now() + BASELINE_SECONDS * 1_000, baseline));
  const attacker = spawn(
    process.execPath,
    [ATTACKER, url, String(IDLE), String(SLOW), String(ATTACK_SECONDS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  attacker.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<void>((resolve) => attacker.once('exit', () => resolve()));
  try {
    await expect.poll(() => out.includes('"ramped"'), { timeout: 30_000 }).toBe(true);
    const until = Date.now() + (ATTACK_SECONDS - 3) * 1_000; // within the attack, as it refills
    const calls = callUntil(until, latencies);
    const health = (async () => {
      while (Date.now() < until) {
        probes.push(await probe(url, '127.0.0.3'));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    await Promise.all([...calls, health]);
  } finally {
    fetch.close();
    await done;
  }
  const attack = JSON.parse(out.split('\n').find((l) => l.includes('"done"'))!) as {
    peak: number;
    closedByServer: number;
  };
  const p99 = percentile(latencies, 99) ?? NaN;
  const baselineP99 = percentile(baseline, 99) ?? NaN;
  const refused = probes.filter((s) => s !== 200).length;
  console.error(
    `fairness: ${latencies.length} calls answered (p50 ${percentile(latencies, 50)?.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; without the attack ${baseline.length} calls, p50 ${percentile(baseline, 50)?.toFixed(1)} ms, p99 ${baselineP99.toFixed(1)} ms), ${failures.length} failed; ${refused} of ${probes.length} health probes refused; the attacker held at most ${attack.peak} connections, ${attack.closedByServer} closed by the server`,
  );
  // The attack happened: it connected, and the server had to close its connections.
  expect(attack.peak).toBeGreaterThan(0);
  expect(attack.closedByServer).toBeGreaterThan(IDLE);
  expect(failures.slice(0, 5)).toEqual([]);
  // Enough calls for a p99 to mean something, with the attack and without.
  expect(baseline.length).toBeGreaterThan(20);
  expect(latencies.length).toBeGreaterThan(50);
  expect(
    p99,
    `p99 of ${latencies.length} calls, ${baselineP99.toFixed(1)} ms without the attack`,
  ).toBeLessThan(baselineP99 + ATTACK_SLACK_MS);
  expect(refused, `health probes refused of ${probes.length}`).toBe(0);
}, 120_000);
