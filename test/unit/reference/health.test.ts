// /healthz says 200 only when every part a request needs is there: the database, and a running
// worker in every lane (a lane with none answers its requests Unavailable). Callers learn the
// status of each part and nothing more; why a part failed (the driver's error, which named the
// database's address to anyone before) goes to the log line of the request it failed.
import { describe, expect, it } from 'vitest';
import { healthCheck, healthRoute } from '../../../src/reference/health.js';
import { LANES, type Lane } from '../../../src/reference/lanes.js';

const up = { ok: true, schemaVersion: 5 };
const DRIVER = 'database unreachable: connect ENOENT /tmp/pg-x1/.s.PGSQL.5432';
const down = { ok: false, schemaVersion: 0, detail: DRIVER };
const lanes = (quick: number, bulk: number): Record<Lane, number> => ({ quick, bulk });

describe('/healthz', () => {
  it.each([
    {
      given: 'the database and every lane',
      db: up,
      workers: 2,
      running: lanes(2, 2),
      want: {
        status: 200,
        body: { status: 'ok', database: 'ok', workers: { quick: 'ok', bulk: 'ok' } },
      },
      cause: undefined,
    },
    {
      given: 'one lane with a worker short',
      db: up,
      workers: 2,
      running: lanes(1, 2),
      want: {
        status: 200,
        body: { status: 'ok', database: 'ok', workers: { quick: 'ok', bulk: 'ok' } },
      },
      cause: undefined,
    },
    {
      given: 'the bulk lane without a running worker',
      db: up,
      workers: 2,
      running: lanes(2, 0),
      want: {
        status: 503,
        body: {
          status: 'unavailable',
          database: 'ok',
          workers: { quick: 'ok', bulk: 'unavailable' },
        },
      },
      cause: 'no running worker in lane bulk',
    },
    {
      given: 'no worker in either lane',
      db: up,
      workers: 1,
      running: lanes(0, 0),
      want: {
        status: 503,
        body: { status: 'unavailable', workers: { quick: 'unavailable', bulk: 'unavailable' } },
      },
      cause: 'no running worker in lane quick, bulk',
    },
    {
      given: 'the database failing',
      db: down,
      workers: 1,
      running: lanes(1, 1),
      want: { status: 503, body: { status: 'unavailable', database: 'unavailable' } },
      cause: `database: ${DRIVER}`,
    },
    {
      given: 'requests on the request loop (--workers 0)',
      db: up,
      workers: 0,
      running: undefined, // no threads: requests run on the request loop
      want: { status: 200, body: { status: 'ok', database: 'ok' } },
      cause: undefined,
    },
  ])('$given', async ({ db, workers, running, want, cause }) => {
    const check = healthCheck({
      health: () => Promise.resolve(db),
      workers,
      ...(running ? { running: () => running } : {}),
    });
    const got = await check();
    const body = JSON.parse(String(got.response.body)) as Record<string, unknown>;
    expect(got.response.status).toBe(want.status);
    expect(body).toMatchObject(want.body);
    expect(got.response.headers['content-type']).toBe('application/json');
    if (workers === 0) expect(body).not.toHaveProperty('workers');
    // Statuses only: nothing of the cause, no count, no address.
    expect(Object.keys(body).sort()).toEqual(
      ['database', 'status', ...(workers === 0 ? [] : ['workers'])].sort(),
    );
    expect(got.cause).toBe(cause);
  });

  it('counts every lane the service has', () => {
    expect(Object.keys(lanes(0, 0)).sort()).toEqual([...LANES].sort());
  });
});

describe('the /healthz route', () => {
  it('tells the caller the status and the log the cause, with the driver error', async () => {
    const logs: string[] = [];
    const route = healthRoute(
      healthCheck({ health: () => Promise.resolve(down), workers: 0 }),
      (l) => logs.push(l),
    );
    const res = await route();
    expect(res.status).toBe(503);
    expect(String(res.body)).not.toContain('ENOENT');
    expect(String(res.body)).not.toContain('.s.PGSQL');
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0]!)).toMatchObject({
      page: 'healthz',
      status: 503,
      error: `database: ${DRIVER}`,
    });
  });

  it('writes no line when every part is there (load balancers ask every few seconds)', async () => {
    const logs: string[] = [];
    const route = healthRoute(healthCheck({ health: () => Promise.resolve(up), workers: 0 }), (l) =>
      logs.push(l),
    );
    expect((await route()).status).toBe(200);
    expect(logs).toEqual([]);
  });
});
