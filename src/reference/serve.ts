// The reference service: the generated server on the SQLite store, with a health check, one JSON
// log line per request (never the secret or the signature) and a graceful stop. Requests run on
// worker threads (workers.ts) so that no request waits for another's database work or encoding;
// `workers: 0` runs them on the request loop itself, as before (the bench's "before").
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  listen,
  type RunningServer,
  type ServiceHandler,
  type ServiceResponse,
} from '@evgen/runtime';
import { SERVICE, namespaceFor } from '@evgen/event-management/service';
import { openDatabase, type Db } from './db/open.js';
import { createKey, hasKeys } from './keys.js';
import { openReplayDatabase } from './db/replay-store.js';
import { prepareDatabase } from './startup.js';
import type { SeedOptions } from './seed/index.js';
import { createReferenceHandler, type ServiceConfig } from './service.js';
import { WorkerPool } from './workers.js';

export interface ReferenceOptions {
  readonly dbPath: string;
  readonly host?: string;
  readonly port?: number;
  readonly log?: (line: string) => void;
  readonly seed?: SeedOptions;
  /** Test forms on the operation pages; default true. */
  readonly testForms?: boolean;
  /** Origins allowed to call the service from browsers (CORS); default none. */
  readonly cors?: readonly string[];
  /** Worker threads per lane (see workers.ts); 0 serves on the request loop. Default: cores. */
  readonly workers?: number;
  /** Serve a read-only database: writes are answered InvalidRequest "read-only service". */
  readonly readOnly?: boolean;
  /** Replay protection: in the database (default), or off (for measuring its cost only). */
  readonly replay?: ServiceConfig['replay'];
  /** Public base URL: fixes the namespace and the WSDL's addresses (default: the Host header). */
  readonly publicUrl?: string;
}

export interface ReferenceService {
  readonly server: RunningServer;
  /** A connection of the main thread (health checks, operator work in tests). */
  readonly db: Db;
  /** Set when this start created the demo key (the database had no key): the pair to print. */
  readonly demoKey: { apiKey: string; secretKey: string } | undefined;
  /** e.g. /API/1_0/SOAP/ServiceAPI.asmx */
  readonly endpointPath: string;
  /** {soap_namespace}, or how each request's Host header makes it. */
  readonly namespace: string;
  readonly workers: number;
  /** The worker threads (undefined with workers: 0). */
  readonly pool: WorkerPool | undefined;
  close(): Promise<void>;
}

export const defaultWorkers = () => availableParallelism();

/** Opens (creating, migrating and seeding an empty database), checks and serves. */
export async function startReferenceService(o: ReferenceOptions): Promise<ReferenceService> {
  prepareDatabase(o.dbPath, { readOnly: o.readOnly ?? false, seed: o.seed });
  const log = o.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  // A read-only database cannot hold the replay record: it goes to a file of this process's own.
  const replayDir = o.readOnly ? mkdtempSync(join(tmpdir(), 'evgen-replay-')) : undefined;
  const config: ServiceConfig = {
    dbPath: o.dbPath,
    readOnly: o.readOnly ?? false,
    replay: o.replay ?? 'database',
    testForms: o.testForms ?? true,
    cors: o.cors ?? [],
    ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
    ...(replayDir ? { replayPath: join(replayDir, 'replay.sqlite') } : {}),
  };
  if (config.replayPath) openReplayDatabase(config.replayPath, true).close();
  const workers = o.workers ?? defaultWorkers();
  const db = openDatabase(o.dbPath, { migrate: false, readOnly: o.readOnly ?? false });
  let handler: ServiceHandler;
  let stop: () => Promise<void>;
  let running: () => number;
  let pool: WorkerPool | undefined;
  if (workers === 0) {
    const inline = createReferenceHandler(config, log);
    handler = inline.handler;
    stop = inline.close;
    running = () => 0;
  } else {
    const started = await WorkerPool.start({ config, workers, log });
    pool = started;
    handler = (req) => started.handle(req);
    stop = () => started.close();
    running = () => started.running;
  }
  const health = healthCheck(db, workers, running);
  const server = await listen(
    async (req) => (req.method === 'GET' && req.url === '/healthz' ? health() : handler(req)),
    { host: o.host ?? '127.0.0.1', port: o.port ?? 8080 },
  ).catch(async (e: unknown) => {
    await stop(); // the workers would keep the process alive
    db.close();
    throw e;
  });
  // Only once the port is bound: a start that cannot listen leaves no key nobody saw printed,
  // and the next start makes one (under the write lock: concurrent starts make one).
  const demoKey = o.readOnly
    ? undefined
    : (() => {
        const writer = openDatabase(o.dbPath, { migrate: false });
        try {
          return writer
            .transaction(() => (hasKeys(writer) ? undefined : createKey(writer, 'demo')))
            .immediate();
        } finally {
          writer.close();
        }
      })();
  return {
    server,
    db,
    demoKey,
    endpointPath: SERVICE.endpointPath,
    namespace: o.publicUrl ? namespaceFor(o.publicUrl) : namespaceFor('{Host}'),
    workers,
    pool,
    async close() {
      await server.close();
      await stop();
      db.close();
      if (replayDir) rmSync(replayDir, { recursive: true, force: true });
    },
  };
}

/** /healthz: 200 when the database answers and every lane has a worker, 503 otherwise; says which. */
function healthCheck(db: Db, workers: number, running: () => number) {
  const version = db.prepare('SELECT max(version) FROM schema_migrations').pluck();
  const probe = db.prepare('SELECT count(*) FROM event').pluck();
  return (): Promise<ServiceResponse> => {
    let database: { ok: boolean; schemaVersion?: number; error?: string };
    try {
      database = { ok: true, schemaVersion: version.get() as number };
      probe.get();
    } catch (e) {
      database = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    const live = running();
    const ok = database.ok && (workers === 0 || live > 0);
    return Promise.resolve({
      status: ok ? 200 : 503,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        status: ok ? 'ok' : 'unavailable',
        database,
        workers: { configured: workers, running: workers === 0 ? 0 : live },
      }),
    });
  };
}
