// A worker thread of the reference service's pool that cannot start when its lane is listed in
// EVGEN_TEST_FAIL_LANES as the thread starts (a worker copies process.env when it is made): what a
// lane whose database connection or memory is refused looks like to the pool. Otherwise it is the
// service's own worker. Run through src/reference/worker-entry.js (PoolOptions.module).
import { workerData } from 'node:worker_threads';
import type { WorkerData } from '../../src/reference/worker.js';

const { lane } = workerData as WorkerData;
if ((process.env.EVGEN_TEST_FAIL_LANES ?? '').split(',').includes(lane))
  throw new Error(`cannot start a ${lane} worker (test)`);
await import('../../src/reference/worker.js');
