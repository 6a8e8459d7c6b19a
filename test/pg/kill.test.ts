// kill -9 one node under booking load: the other node keeps answering, and every booking either
// node acknowledged is in the database afterwards, whole.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newDatabase, withDatabase, type TestDatabase } from '../support/backend.js';
import { serve, stop, type ServeProcess } from '../integration/reference/serve-process.js';
import { bookingLoad, missingBookings, untilAcked } from '../support/booking-load.js';

let database: TestDatabase;
let nodes: ServeProcess[];
beforeAll(async () => {
  database = await newDatabase();
  const first = serve(database.target, '--workers', '1');
  await first.ready; // seeds; the second node starts on the seeded database
  nodes = [first, serve(database.target, '--workers', '1')];
  await nodes[1]!.ready;
}, 120_000);
afterAll(async () => {
  await Promise.all(nodes.map(stop));
  await database.remove();
});

it('kill -9 one node under booking load: the other answers, nothing acknowledged is lost', async () => {
  const ready = await Promise.all(nodes.map((n) => n.ready));
  const killed = nodes[0]!.child;
  let dead = false;
  const load = bookingLoad(
    ready.map((r) => r.url),
    ready[0]!.key!,
    8,
    { isDown: (node) => node === 0 && dead },
  );
  try {
    await untilAcked(load, 80);
    killed.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((r) => killed.once('exit', r));
    dead = true;
    const before = load.acked.length;
    await untilAcked(load, before + 80);
    await load.stop();
    expect(killed.signalCode).toBe('SIGKILL');
    // Node 1 answered every request, before and after the kill; node 0 acknowledged some first.
    const byNode = (node: number) => load.outcomes.filter((o) => o.node === node);
    expect(byNode(1).filter((o) => o.result !== 'ok')).toEqual([]);
    expect(byNode(1).filter((o) => o.at > killedAt).length).toBeGreaterThanOrEqual(80);
    expect(byNode(0).filter((o) => o.result === 'ok').length).toBeGreaterThan(0);
    // Requests node 0 held when it died got no answer; none got a fault.
    expect(byNode(0).filter((o) => o.result !== 'ok' && o.result !== 'transport')).toEqual([]);
  } finally {
    await load.stop();
  }
  expect(await withDatabase(database.target, (db) => missingBookings(db, load.acked))).toEqual([]);
}, 120_000);
