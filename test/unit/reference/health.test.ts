// /healthz says 200 only when every part a request needs is there: the database, and a running
// worker in every lane (a lane with none holds its requests until the queue refuses them).
import { describe, expect, it } from 'vitest';
import { healthCheck } from '../../../src/reference/health.js';
import { LANES, type Lane } from '../../../src/reference/lanes.js';

const up = { ok: true, schemaVersion: 5 };
const lanes = (quick: number, bulk: number): Record<Lane, number> => ({ quick, bulk });

describe('/healthz', () => {
  it.each([
    {
      given: 'the database and every lane',
      db: up,
      workers: 2,
      running: lanes(2, 2),
      want: { status: 200, body: { status: 'ok', workers: { running: 4, lanes: lanes(2, 2) } } },
    },
    {
      given: 'one lane with a worker short',
      db: up,
      workers: 2,
      running: lanes(1, 2),
      want: { status: 200, body: { status: 'ok', workers: { running: 3 } } },
    },
    {
      given: 'the bulk lane without a running worker',
      db: up,
      workers: 2,
      running: lanes(2, 0),
      want: {
        status: 503,
        body: { status: 'unavailable', workers: { error: 'no running worker in lane bulk' } },
      },
    },
    {
      given: 'no worker in either lane',
      db: up,
      workers: 1,
      running: lanes(0, 0),
      want: { status: 503, body: { workers: { error: 'no running worker in lane quick, bulk' } } },
    },
    {
      given: 'the database failing',
      db: { ok: false, schemaVersion: 0, detail: 'disk I/O error' },
      workers: 1,
      running: lanes(1, 1),
      want: { status: 503, body: { database: { ok: false, error: 'disk I/O error' } } },
    },
    {
      given: 'requests on the request loop (--workers 0)',
      db: up,
      workers: 0,
      running: undefined, // no threads: requests run on the request loop
      want: { status: 200, body: { status: 'ok', workers: { configured: 0, running: 0 } } },
    },
  ])('$given', async ({ db, workers, running, want }) => {
    const check = healthCheck({
      health: () => Promise.resolve(db),
      workers,
      ...(running ? { running: () => running } : {}),
    });
    const res = await check();
    const body = JSON.parse(String(res.body)) as Record<string, unknown>;
    expect({ status: res.status, body }).toMatchObject(want);
    expect(res.headers['content-type']).toBe('application/json');
    if (workers === 0) expect(body.workers).not.toHaveProperty('lanes');
    if (res.status === 200) expect(body.workers).not.toHaveProperty('error');
  });

  it('counts every lane the service has', () => {
    expect(Object.keys(lanes(0, 0)).sort()).toEqual([...LANES].sort());
  });
});
