// Worker threads that cannot start, reproduced first on the pool that lacked the checks: start()
// resolved when every worker of a lane had died before it was ready (the service went on to
// listen); a lane past its failed-start limit still queued requests, which waited until the queue
// was full; and close() then never resolved.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WIRE } from '@evgen/event-management/service';
import { databaseTarget } from '../../../src/reference/database.js';
import { prepareDatabase } from '../../../src/reference/sqlite/startup.js';
import type { ServiceConfig } from '../../../src/reference/service.js';
import type { RequestRecord } from '../../../src/reference/ops/logger.js';
import { WorkerPool, WorkerStartError } from '../../../src/reference/workers.js';
import { ENDPOINT } from '../../support/requests.js';

/** From src/reference/, as worker-entry.js loads it. */
const FAILING = '../../test/support/failing-worker';

let dir: string;
let config: ServiceConfig;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-worker-starts-'));
  const path = join(dir, 'events.sqlite');
  prepareDatabase(path, { seed: { events: 1, bookings: 20 } });
  config = {
    database: databaseTarget(path),
    readOnly: false,
    poolSize: 2,
    replay: 'database',
    readCache: true,
    testForms: false,
    cors: [],
  };
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.EVGEN_TEST_FAIL_LANES;
});

const UNAVAILABLE = WIRE.faults.codes.find((c) => c.code === 'Unavailable')!;
/** A page (the bulk lane) without credentials: a live worker answers it 401 at once. */
const page = {
  method: 'GET',
  url: `${ENDPOINT}/GetBookings?eventId=1&skip=0`,
  headers: {},
  body: new Uint8Array(0),
};

/** `p`, or 'pending' once `ms` pass. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

function start(logs: string[] = [], records: RequestRecord[] = []) {
  return WorkerPool.start({
    config,
    workers: 1,
    log: (l) => logs.push(l),
    onRequest: (r) => records.push(r),
    module: FAILING,
  });
}

/** Stops the lane's worker with its replacements failing. */
async function killLane(pool: WorkerPool, lane: 'quick' | 'bulk') {
  process.env.EVGEN_TEST_FAIL_LANES = lane;
  await pool.terminate(pool.threads.find((t) => t.lane === lane)!.id);
}

/** Waits until the pool gives up replacing a lane's workers. */
async function givenUp(logs: string[]) {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    if (logs.some((l) => l.includes('"worker not replaced'))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the pool never gave up on the lane');
}

describe('workers that cannot start', () => {
  it('start() rejects when no worker of a lane became ready, naming the lane and the cause', async () => {
    process.env.EVGEN_TEST_FAIL_LANES = 'bulk';
    const logs: string[] = [];
    const outcome = await within(
      start(logs).then(
        async (pool) => (await pool.close(), 'started'),
        (e: unknown) => e,
      ),
      30_000,
    );
    expect(outcome).toBeInstanceOf(WorkerStartError);
    expect((outcome as Error).message).toMatch(
      /^no worker of lane bulk became ready \(\d+ tried\): .*cannot start a bulk worker \(test\)/,
    );
    // The quick lane's worker, which did start, was stopped: nothing is left running.
    expect(logs.filter((l) => l.includes('"worker started"'))).toHaveLength(1);
  }, 40_000);

  it('a lane that can no longer start workers answers Unavailable at once, those waiting too', async () => {
    const logs: string[] = [];
    const records: RequestRecord[] = [];
    const pool = await start(logs, records);
    const withId = (id: string) => ({ ...page, headers: { 'x-request-id': id } });
    try {
      await killLane(pool, 'bulk');
      const waiting = pool.handle(withId('waiting')); // queued while the replacements fail
      await givenUp(logs);
      const now = pool.handle(withId('now'));
      for (const answer of [waiting, now]) {
        const res = await within(answer, 1_000);
        expect(res, 'answered at once').not.toBe('pending');
        if (res === 'pending') return;
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe(String(UNAVAILABLE.retryAfterSeconds));
        expect(String(res.body)).toBe('Unavailable: no worker can be started in lane bulk\n');
      }
      expect(pool.running).toEqual({ quick: 1, bulk: 0 });
      // Each refusal has its request record (the log line, metrics and span of every request),
      // with why the lane has no worker; no line of the pool's own.
      expect(records.map((r) => r.requestId)).toEqual(['waiting', 'now']);
      for (const record of records)
        expect(record).toMatchObject({
          operation: 'GetBookings',
          status: 503,
          faultCode: 'Unavailable',
          error: {
            message: 'no worker can be started in lane bulk: cannot start a bulk worker (test)',
          },
        });
      expect(logs.filter((l) => l.includes('"status":503'))).toEqual([]);
    } finally {
      expect(await within(pool.close(), 10_000)).not.toBe('pending');
    }
  }, 40_000);

  it('close() resolves with requests waiting in a lane whose workers are gone', async () => {
    const logs: string[] = [];
    const pool = await start(logs);
    await killLane(pool, 'bulk');
    const answers = [pool.handle(page), pool.handle(page)];
    await givenUp(logs);
    expect(await within(pool.close(), 10_000)).not.toBe('pending');
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([503, 503]);
  }, 40_000);

  it('close() resolves while a replacement worker is still starting', async () => {
    const pool = await start();
    await pool.terminate(pool.threads.find((t) => t.lane === 'quick')!.id);
    expect(await within(pool.close(), 10_000)).not.toBe('pending');
  }, 40_000);
});
