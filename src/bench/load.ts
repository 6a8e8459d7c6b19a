// Runs load against one server from a process of its own and returns its figures. Generator: wrk
// (Debian package wrk) with pre-signed requests when it is installed, else autocannon
// (load-worker.mjs), which signs each request in JavaScript and tops out below the bare node:http
// server's rate, so without wrk the ceiling is understated (the bench's load generator check row).
import { spawnSync } from 'node:child_process';
import { runToEnd } from './children.js';
import { benchAsset } from './entries.js';
import { loadWrk } from './load-wrk.js';

export type Generator = 'wrk' | 'autocannon';

export interface LoadFigures {
  readonly generator: Generator;
  readonly rps: number;
  /** Latency, ms. */
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU time (user+system) the load generator itself used, ms. */
  readonly cpuMs: number;
  /** wrk only: times a thread ran out of signatures and repeated them. */
  readonly wrapped?: number;
}

export interface Key {
  readonly apiKey: string;
  readonly secretKey: string;
}

export interface LoadSpec {
  readonly url: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  /** SOAP request with __TIMESTAMP__, __SIGNATURE__ and __APIKEY__ to fill in per request. */
  readonly body: string;
  readonly operation: string;
  /** wrk: one key per thread (two threads); autocannon signs with the first. */
  readonly keys: readonly Key[];
  readonly connections: number;
  readonly duration: number;
  /** A taskset(1) CPU list the load generator is kept on; default anywhere. */
  readonly cpus?: string;
}

let wrkFound: boolean | undefined;
export const wrkInstalled = () => (wrkFound ??= !spawnSync('wrk', ['-v']).error);

export function load(
  spec: LoadSpec,
  generator: Generator = wrkInstalled() ? 'wrk' : 'autocannon',
): Promise<LoadFigures> {
  return generator === 'wrk' ? loadWrk(spec) : loadAutocannon(spec);
}

const WORKER = benchAsset('load-worker.mjs');

async function loadAutocannon(spec: LoadSpec): Promise<LoadFigures> {
  const key = spec.keys[0]!;
  const o = {
    ...spec,
    body: spec.body.replace('__APIKEY__', key.apiKey),
    sign: { secret: key.secretKey, operation: spec.operation },
  };
  return {
    generator: 'autocannon',
    ...(JSON.parse(await runToEnd('node', [WORKER, JSON.stringify(o)], spec.duration)) as Omit<
      LoadFigures,
      'generator'
    >),
  };
}
