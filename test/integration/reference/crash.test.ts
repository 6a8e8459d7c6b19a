// Durability: kill -9 the server in the middle of a booking load, restart it, and every
// acknowledged booking is there, whole; nothing is half-written.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../../src/reference/sqlite/open.js';
import { newDatabase, withDatabase, type TestDatabase } from '../../support/backend.js';
import { bookingLoad, missingBookings, untilAcked } from '../../support/booking-load.js';
import { serve } from './serve-process.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await newDatabase();
});
afterAll(() => database.remove());

it('keeps every acknowledged booking across kill -9', async () => {
  const node = serve(database.target);
  const { url, key } = await node.ready;
  const load = bookingLoad([url], key!, 8);
  try {
    await untilAcked(load, 150);
    node.child.kill('SIGKILL');
    await node.exited;
  } finally {
    await load.stop();
  }
  expect(node.child.signalCode).toBe('SIGKILL');
  expect(load.acked.length).toBeGreaterThanOrEqual(150);
  // The WAL is recovered as the file is opened again.
  expect(await withDatabase(database.target, (db) => missingBookings(db, load.acked))).toEqual([]);
  const reopened = openDatabase(database.target);
  try {
    expect(reopened.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
  } finally {
    reopened.close();
  }
}, 120_000);
