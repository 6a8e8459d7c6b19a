// The bulk work alone, in a process of its own (started by alone.ts): GetBookingsBatch(100)
// through the whole service, without HTTP, on `threads` worker threads at once, each set up as a
// bulk worker of `evgen serve` is (its own service and database connections, the same heap
// limits). Nothing here parses HTTP, writes to a socket or generates load, so what two threads do
// against one is the most `--workers 2` against 1 can give on this machine.
// argv: database eventId threads seconds; prints {"calls":…,"seconds":…}.
import { once } from 'node:events';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { runOnSqlite } from '../reference/database.js';
import { openDatabase } from '../reference/sqlite/open.js';
import { createKey } from '../reference/keys.js';
import { POOL_PER_WORKER } from '../reference/serve.js';
import { laneLimits } from '../reference/workers.js';
import type { Key } from './load.js';
import { NS, benchService, soapRequest, timeCall } from './reference.js';

/** Unmeasured calls first, as each server gets a second of warm-up before its load. */
const WARM_MS = 1_000;

/** Starts a thread on this module, from the sources (through tsx) or the build alike. */
const ENTRY = new URL('../reference/worker-entry.js', import.meta.url);

interface ThreadData {
  /** For worker-entry.js: this module, from src/reference/. */
  readonly module: string;
  readonly database: string;
  readonly eventId: number;
  readonly key: Key;
  readonly seconds: number;
}

/** One thread: warms up, says so, waits for 'go', then counts the 200 answers until its time is up. */
async function thread(d: ThreadData, port: NonNullable<typeof parentPort>): Promise<void> {
  const service = benchService(d.database, POOL_PER_WORKER);
  const params = `<eventId>${d.eventId}</eventId><skip>0</skip><size>100</size>`;
  const call = () =>
    timeCall(service.handler, soapRequest(d.key, NS, 'GetBookingsBatch', params), 'work alone');
  for (const end = Date.now() + WARM_MS; Date.now() < end; ) await call();
  port.postMessage('warm');
  await new Promise((go) => port.once('message', go));
  let calls = 0;
  for (const end = Date.now() + d.seconds * 1000; Date.now() < end; calls++) await call();
  await service.close();
  port.postMessage(calls);
}

/** The next message of `w`; rejected if the thread fails first (events.once listens for 'error'). */
const message = async (w: Worker): Promise<unknown> => (await once(w, 'message'))[0];

async function main(): Promise<void> {
  const [database = '', ...numbers] = process.argv.slice(2);
  const [eventId, threads, seconds] = numbers.map(Number) as [number, number, number];
  const db = openDatabase(database);
  // A key per thread: each signs with its own timestamps, so no request replays another's.
  const keys = Array.from({ length: threads }, (_, i) =>
    runOnSqlite(db, createKey(`work alone ${i}`)),
  );
  db.close();
  const workers = keys.map((key) => {
    const data: ThreadData = {
      module: '../bench/alone-child',
      database,
      eventId,
      key,
      seconds,
    };
    return new Worker(ENTRY, {
      workerData: data,
      resourceLimits: laneLimits('bulk'),
    });
  });
  await Promise.all(workers.map(message));
  const done = workers.map(message);
  for (const w of workers) w.postMessage('go');
  const calls = (await Promise.all(done)).reduce((sum: number, n) => sum + Number(n), 0);
  process.stdout.write(JSON.stringify({ calls, seconds }));
}

if (isMainThread) await main();
else await thread(workerData as ThreadData, parentPort!);
