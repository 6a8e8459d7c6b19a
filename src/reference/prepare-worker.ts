// The thread that prepares a SQLite database for serve.ts (prepare-thread.ts starts it through
// worker-entry.js): prepareDatabase is synchronous, so run on the request loop it held every
// request, /healthz included, for as long as a seed or a wait for another process's lock took.
import { parentPort, workerData } from 'node:worker_threads';
import { prepareDatabase, StartupError } from './sqlite/startup.js';
import type { FromPrepare, PrepareData } from './prepare-thread.js';

const data = workerData as PrepareData;
const post = (m: FromPrepare) => parentPort!.postMessage(m);
try {
  const { seeded } = prepareDatabase(data.path, {
    readOnly: data.readOnly,
    ...(data.seed
      ? {
          seed: {
            ...data.seed,
            onProgress: (done, total) => post({ type: 'progress', done, total }),
          },
        }
      : {}),
  });
  post({ type: 'done', seeded });
} catch (e) {
  const error = e instanceof Error ? e : new Error(String(e));
  const code = (e as { code?: unknown }).code;
  post({
    type: 'failed',
    startup: e instanceof StartupError,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
  });
}
