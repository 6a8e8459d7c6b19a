// Runs the load worker against one server and returns its figures.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface LoadFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

export interface LoadSpec {
  readonly url: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly connections: number;
  readonly duration: number;
  readonly sign?: { readonly secret: string; readonly operation: string };
}

const WORKER = fileURLToPath(new URL('./load-worker.mjs', import.meta.url));

export async function load(spec: LoadSpec): Promise<LoadFigures> {
  const { stdout } = await promisify(execFile)('node', [WORKER, JSON.stringify(spec)], { maxBuffer: 1 << 20, timeout: (spec.duration + 30) * 1000 });
  return JSON.parse(stdout) as LoadFigures;
}
