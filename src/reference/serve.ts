// The reference service: the generated server on the SQLite store, with a health check, one JSON
// log line per request (never the secret or the signature) and a graceful stop. Requests run on
// worker threads (workers.ts) so that no request waits for another's database work or encoding;
// `workers: 0` runs them on the request loop itself, as before (the bench's "before").
import { availableParallelism } from 'node:os';
import {
  listen,
  type RunningServer,
  type ServiceHandler,
  type ServiceResponse,
} from '@evgen/runtime';
import { openDatabase, type Db } from './db/open.js';
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
  /** Worker threads per lane (see workers.ts); 0 serves on the request loop. Default: cores. */
  readonly workers?: number;
  /** Serve a read-only database: writes are answered InvalidRequest "read-only service". */
  readonly readOnly?: boolean;
  /** Replay protection: in the database (default), or off (for measuring its cost only). */
  readonly replay?: ServiceConfig['replay'];
}

export interface ReferenceService {
  readonly server: RunningServer;
  /** A connection of the main thread (health checks, operator work in tests). */
  readonly db: Db;
  /** Set when this start created and seeded the database: the demo key pair to print. */
  readonly demoKey: { apiKey: string; secretKey: string } | undefined;
  readonly workers: number;
  close(): Promise<void>;
}

export const defaultWorkers = () => availableParallelism();

/** Opens (creating, migrating and seeding an empty database), checks and serves. */
export async function startReferenceService(o: ReferenceOptions): Promise<ReferenceService> {
  const { demoKey } = prepareDatabase(o.dbPath, { readOnly: o.readOnly ?? false, seed: o.seed });
  const log = o.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const config: ServiceConfig = {
    dbPath: o.dbPath,
    readOnly: o.readOnly ?? false,
    replay: o.replay ?? 'database',
  };
  const workers = o.workers ?? defaultWorkers();
  const db = openDatabase(o.dbPath, { migrate: false, readOnly: o.readOnly ?? false });
  let handler: ServiceHandler;
  let stop: () => Promise<void>;
  let running: () => number;
  if (workers === 0) {
    const inline = createReferenceHandler(config, log);
    handler = inline.handler;
    stop = inline.close;
    running = () => 0;
  } else {
    const pool = await WorkerPool.start({ config, workers, log });
    handler = (req) => pool.handle(req);
    stop = () => pool.close();
    running = () => pool.running;
  }
  const health = healthCheck(db, workers, running);
  const server = await listen(
    async (req) => (req.method === 'GET' && req.url === '/healthz' ? health() : handler(req)),
    { host: o.host ?? '127.0.0.1', port: o.port ?? 8080 },
  );
  return {
    server,
    db,
    demoKey,
    workers,
    async close() {
      await server.close();
      await stop();
      db.close();
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
