// PostgreSQL restarted under load (a server of this file's own, as the others share the run's):
// while it is down both nodes answer Unavailable (503 with Retry-After on every binding) and
// /healthz says the database is unreachable; they reconnect by themselves and serve again within
// 5 s of it coming back; nothing acknowledged is lost.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ServiceError } from '@evgen/runtime';
import { BINDING_IDS, type BindingId } from '@evgen/event-management/service';
import { EventServiceClient } from '@evgen/event-management/client';
import { withDatabase } from '../support/backend.js';
import { PgCluster, TEST_SETTINGS } from '../../src/reference/pg/local-server.js';
import { serve, stop, type ServeProcess } from '../integration/reference/serve-process.js';
import { bookingLoad, missingBookings, untilAcked } from '../support/booking-load.js';

/** How soon after the server accepts connections again both nodes must serve (issue 14). */
const BACK_WITHIN_MS = 5_000;

let cluster: PgCluster;
let url: string;
let nodes: ServeProcess[];
beforeAll(async () => {
  cluster = await PgCluster.start(TEST_SETTINGS);
  url = await cluster.createDatabase();
  const first = serve(url, '--workers', '1');
  await first.ready;
  nodes = [first, serve(url, '--workers', '1')];
  await nodes[1]!.ready;
}, 120_000);
afterAll(async () => {
  await Promise.all(nodes.map(stop));
  await cluster.stop();
});

const health = async (base: string) => {
  const res = await fetch(`${base}/healthz`);
  return { status: res.status, text: await res.text() };
};
/** The JSON lines a node logged. */
const lines = (n: ServeProcess) =>
  n
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

it('PostgreSQL restarted under load: Unavailable/503 while down, back within 5 s, nothing lost', async () => {
  const ready = await Promise.all(nodes.map((n) => n.ready));
  const urls = ready.map((r) => r.url);
  const key = ready[0]!.key!;
  const client = (node: number, binding: BindingId) =>
    new EventServiceClient({ baseUrl: urls[node]!, ...key, binding, timeoutMs: 10_000 });
  const load = bookingLoad(urls, key, 4);
  try {
    await untilAcked(load, 40);
    await cluster.stopServer('immediate');
    const downAt = Date.now();

    // Down: every binding answers Unavailable with 503 (SOAP too: a Receiver fault), health 503.
    for (const node of [0, 1]) {
      for (const binding of BINDING_IDS) {
        const e = await client(node, binding)
          .getEventDetails7({ eventId: 1 })
          .catch((x: unknown) => x);
        expect(e, `${binding} on node ${node}`).toBeInstanceOf(ServiceError);
        expect(e, `${binding} on node ${node}`).toMatchObject({
          code: 'Unavailable',
          faultString: 'database unreachable', // the driver's text goes to the log only
          httpStatus: 503,
          retryAfterSeconds: 1,
        });
      }
      // The caller learns which part failed and nothing more: before, the body named the
      // database's socket (connect ENOENT /tmp/…/.s.PGSQL.5432) to anyone who asked.
      const h = await health(urls[node]!);
      expect(h.status).toBe(503);
      expect(JSON.parse(h.text)).toEqual({
        status: 'unavailable',
        database: 'unavailable',
        workers: { quick: 'ok', bulk: 'ok' },
      });
      expect(h.text).not.toMatch(/PGSQL|ECONN|ENOENT|\/tmp/);
      // The operator's log has the cause, the driver's error, for the health check and for every
      // request the database failed (written asynchronously: it may follow the answer).
      await expect
        .poll(() => lines(nodes[node]!).some((l) => l.page === 'healthz'), { timeout: 5_000 })
        .toBe(true);
      const logged = lines(nodes[node]!);
      const healthLine = logged.find((l) => l.page === 'healthz');
      expect(healthLine).toMatchObject({ status: 503 });
      expect(healthLine!.error).toMatch(/^database: database unreachable: \S/);
      const failed = logged.filter((l) => l.faultCode === 'Unavailable');
      expect(failed.length).toBeGreaterThan(0);
      for (const l of failed)
        expect(l.error, JSON.stringify(l)).toMatchObject({ message: expect.any(String) as string });
    }

    await cluster.startServer();
    const upAt = Date.now();
    for (const node of [0, 1]) {
      const c = client(node, 'httpGet');
      for (;;) {
        const answered = await c.getEventDetails7({ eventId: 1 }).then(
          () => true,
          () => false,
        );
        if (answered) break;
        expect(Date.now() - upAt, `node ${node} serving again`).toBeLessThan(BACK_WITHIN_MS);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await health(urls[node]!)).status).toBe(200);
    }
    const afterRestart = load.acked.length;
    await untilAcked(load, afterRestart + 40);
    await load.stop();

    // The load got Unavailable only, also for the requests in flight when the server went down:
    // no other fault, no request left unanswered, and no worker thread died of a broken connection.
    const down = load.outcomes.filter((o) => o.at > downAt && o.at < upAt);
    expect(down.length).toBeGreaterThan(0);
    expect(load.outcomes.filter((o) => o.result !== 'Unavailable' && o.result !== 'ok')).toEqual(
      [],
    );
    const logs = nodes.flatMap((n) => n.stdout().split('\n'));
    expect(logs.filter((l) => /"event":"worker (error|exited)"/.test(l))).toEqual([]);
  } finally {
    await load.stop();
  }
  expect(await withDatabase(url, (db) => missingBookings(db, load.acked))).toEqual([]);
}, 180_000);
