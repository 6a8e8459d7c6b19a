// Prepares (checks, migrates, seeds) a SQLite database on a thread of its own, so the request loop
// stays free meanwhile: the port is bound first and every request is answered "starting" until
// the database is ready (serve.ts), however long a seed or a wait for another process's lock takes.
import { Worker } from 'node:worker_threads';
import type { SeedOptions } from './seed/index.js';
import { StartupError, type Prepared } from './sqlite/startup.js';

const ENTRY = new URL('./worker-entry.js', import.meta.url);

export interface PrepareData {
  /** For worker-entry.js. */
  readonly module: 'prepare-worker';
  readonly path: string;
  readonly readOnly: boolean;
  readonly seed?: Omit<SeedOptions, 'onProgress'>;
}
export type FromPrepare =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; seeded: boolean }
  | { type: 'failed'; startup: boolean; message: string; code?: string };

/** prepareDatabase(path, o) on another thread: its outcome, its errors as they were thrown. */
export function prepareInThread(
  path: string,
  o: { readOnly?: boolean; seed?: SeedOptions },
): Promise<Prepared> {
  const { onProgress, ...seed } = o.seed ?? {};
  const data: PrepareData = {
    module: 'prepare-worker',
    path,
    readOnly: o.readOnly ?? false,
    ...(o.seed ? { seed } : {}),
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(ENTRY, { workerData: data });
    worker.on('message', (m: FromPrepare) => {
      if (m.type === 'progress') return onProgress?.(m.done, m.total);
      if (m.type === 'done') return resolve({ seeded: m.seeded });
      const e = m.startup ? new StartupError(m.message) : new Error(m.message);
      reject(m.code === undefined ? e : Object.assign(e, { code: m.code }));
    });
    worker.on('error', reject);
    // After an outcome, no-op; before one (the thread stopped without a word), the start fails.
    worker.on('exit', (code) =>
      reject(new Error(`the thread preparing database ${path} stopped (exit code ${code})`)),
    );
  });
}
