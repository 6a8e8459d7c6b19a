// The reference service: the generated server on a store (SQLite file or PostgreSQL database),
// with a health check, one JSON log line per request (never the secret or the signature) and a
// graceful stop. Pages and writes run on worker threads (workers.ts) so that no request waits for
// another's database work or encoding; small reads run on the request loop (lanes.ts,
// routeOf), where they cost less than the hand-off to a worker did; `workers: 0` runs
// everything on the request loop. On PostgreSQL any number of such nodes share one database.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  listen,
  type RunningServer,
  type ServiceHandler,
  type ServiceRequest,
  type ServiceResponse,
} from '@evgen/runtime';
import {
  databaseTarget,
  describeTarget,
  openReferenceDatabase,
  openStore,
  type DatabaseTarget,
  type ReferenceDatabase,
} from './database.js';
import { SERVICE, namespaceFor } from '@evgen/event-management/service';
import { ensureDemoKey } from './keys.js';
import { preparePostgres } from './pg/startup.js';
import { StartupError } from './sqlite/startup.js';
import { prepareInThread } from './prepare-thread.js';
import { unavailable } from './faults.js';
import { recordedRefusal } from './refused.js';
import type { RequestRecord } from './ops/logger.js';
import type { SeedOptions } from './seed/index.js';
import { logDroppedConnections } from './connections.js';
import { healthCheck, healthRoute } from './health.js';
import { createReferenceHandler, type ServiceConfig } from './service.js';
import { WorkerPool } from './workers.js';
import { routeOf } from './lanes.js';
import { checkOpsOptions, createOps, type Ops } from './ops/index.js';
import type { AdminListener } from './ops/admin.js';
import type { LogLevel } from './ops/options.js';

export interface ReferenceOptions {
  /** A SQLite file path or a postgres:// URL. */
  readonly database: string;
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
  /**
   * With workers: where small reads are served, on the request loop (default) or on the quick
   * lane's workers (as before; for measuring the hand-off and for tests of both paths).
   */
  readonly smallReads?: 'loop' | 'workers';
  /** Serve a read-only database: writes are answered InvalidRequest "read-only service". */
  readonly readOnly?: boolean;
  /** Replay protection: in the database (default), or off (for measuring its cost only). */
  readonly replay?: ServiceConfig['replay'];
  /** SQLite: small reads answered from memory while nothing was committed since (default true; off for measuring what it saves). */
  readonly readCache?: boolean;
  /** Public base URL: fixes the namespace and the WSDL's addresses (default: the Host header). */
  readonly publicUrl?: string;
  /** Connections open at once; past it new ones are closed and logged (default: the runtime's). */
  readonly maxConnections?: number;
  /** Connections one client address may hold (default: the runtime's). */
  readonly maxConnectionsPerClient?: number;
  /** Lowest level logged (default info). */
  readonly logLevel?: LogLevel;
  /** The admin listener (/metrics); none when absent. Its host defaults to the loopback address. */
  readonly admin?: { readonly host?: string; readonly port: number };
  /** Test controls on the admin listener, behind this token (at least 16 characters). */
  readonly testControls?: { readonly token: string };
}

export interface ReferenceService {
  readonly server: RunningServer;
  readonly target: DatabaseTarget;
  /** The database, from the main thread (operator work in tests and the bench). */
  readonly database: ReferenceDatabase;
  /** Set when this start created the demo key (the database had no key): the pair to print. */
  readonly demoKey: { apiKey: string; secretKey: string } | undefined;
  /** e.g. /API/1_0/SOAP/ServiceAPI.asmx */
  readonly endpointPath: string;
  /** {soap_namespace}, or how each request's Host header makes it. */
  readonly namespace: string;
  readonly workers: number;
  /** Connections open at once, as the listener applies it (the runtime's default unless set). */
  readonly maxConnections: number;
  /** Connections one client may hold, as the listener applies it. */
  readonly maxConnectionsPerClient: number;
  /** The worker threads (undefined with workers: 0). */
  readonly pool: WorkerPool | undefined;
  /** The admin listener, when `admin` was given. */
  readonly admin: AdminListener | undefined;
  close(): Promise<void>;
}

export const defaultWorkers = () => availableParallelism();

/**
 * PostgreSQL connections per instance of the service: a worker thread serves one request at a
 * time (replay record, key, then the operation: one connection at a time, one spare); the request
 * loop (workers 0) serves many at once; beside workers it serves small reads only. A node holds
 * at most 2 × 2 × workers + 4 + 1 connections.
 */
export const POOL_PER_WORKER = 2;
export const POOL_INLINE = 16;
export const POOL_SMALL_READS = 4;

/** Options that cannot work, refused before the port is bound. */
function checkOptions(target: DatabaseTarget, o: ReferenceOptions): void {
  if (target.dialect === 'postgres' && o.readOnly)
    throw new StartupError(
      `--read-only serves a SQLite file; on PostgreSQL (${describeTarget(target)}) give the nodes a role that may only read instead`,
    );
}

/** Creates, migrates and seeds a new database. */
async function prepare(target: DatabaseTarget, o: ReferenceOptions): Promise<void> {
  // On a thread of its own: the request loop answers "starting" meanwhile.
  if (target.dialect === 'sqlite')
    await prepareInThread(target.path, { readOnly: o.readOnly ?? false, seed: o.seed });
  else await preparePostgres(target.url, { seed: o.seed });
}

/** What answers requests once the service has started. */
interface Serving {
  readonly handler: ServiceHandler;
  /** Frees an answer's body once written (answers from worker threads). */
  readonly release?: (answer: ServiceResponse) => void;
}

/**
 * The listener's handler: until `open`, every request is answered Unavailable "starting" (and
 * /healthz 503), so the port can be bound before anything is created or seeded.
 */
function startingGate(onRequest: (record: RequestRecord) => void) {
  let serving: Serving | undefined;
  const starting = unavailable('starting: the service is preparing its database');
  return {
    handler: (req: ServiceRequest): Promise<ServiceResponse> => {
      if (serving) return serving.handler(req);
      if (req.method === 'GET' && req.url === HEALTH_PATH)
        return Promise.resolve({
          status: 503,
          headers: { 'content-type': 'application/json' },
          body: '{"status":"starting"}',
        });
      const taken = { req, since: performance.now() };
      return Promise.resolve(recordedRefusal(taken, starting, starting.message, onRequest));
    },
    release: (answer: ServiceResponse) => serving?.release?.(answer),
    open: (s: Serving) => void (serving = s),
  };
}

const HEALTH_PATH = '/healthz';

/** Binds the port, then opens (creating, migrating and seeding an empty database), checks and serves. */
export async function startReferenceService(o: ReferenceOptions): Promise<ReferenceService> {
  const target = databaseTarget(o.database);
  checkOptions(target, o);
  const opsOptions = {
    ...(o.log ? { log: o.log } : {}),
    ...(o.logLevel ? { logLevel: o.logLevel } : {}),
    ...(o.admin ? { admin: o.admin } : {}),
    ...(o.testControls ? { testControls: o.testControls } : {}),
  };
  checkOpsOptions(opsOptions);
  const ops = createOps(opsOptions);
  const log = ops.line;
  // The port first: a start that cannot listen creates and seeds nothing.
  const gate = startingGate(ops.request);
  // Request ids on every answer, the starting gate's too.
  const front = ops.front(gate.handler, gate.release);
  const server = await listen(front.handler, {
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 8080,
    ...(o.maxConnections === undefined ? {} : { maxConnections: o.maxConnections }),
    ...(o.maxConnectionsPerClient === undefined
      ? {}
      : { maxConnectionsPerClient: o.maxConnectionsPerClient }),
    // A load balancer's health check is answered even when every connection is taken.
    reservedPath: HEALTH_PATH,
    onWritten: front.release,
    // e.g. an accept refused for want of file descriptors: logged, and the server goes on.
    onError: (e) =>
      log(
        JSON.stringify({ time: new Date().toISOString(), event: 'server error', error: e.message }),
      ),
  });
  logDroppedConnections(server.server, server.limits, log);
  ops.listening(server.server);
  let parts: Awaited<ReturnType<typeof openService>> | undefined;
  try {
    await prepare(target, o);
    parts = await openService(target, o, ops);
    gate.open(parts);
    // The admin port before the demo key, as the public port: a start that fails leaves no key.
    const admin = await ops.start({
      server: server.server,
      pool: parts.pool,
      database: parts.database,
      target,
      readOnly: o.readOnly ?? false,
      replayPath: parts.replayPath,
    });
    // Only once the port is bound: a start that cannot listen leaves no key nobody saw printed,
    // and the next start makes one (under the write lock: concurrent starts make one).
    const demoKey = o.readOnly ? undefined : await parts.database.run(ensureDemoKey());
    ops.flush();
    return {
      server,
      target,
      database: parts.database,
      demoKey,
      endpointPath: SERVICE.endpointPath,
      namespace: o.publicUrl ? namespaceFor(o.publicUrl) : namespaceFor('{Host}'),
      workers: parts.workers,
      maxConnections: server.limits.maxConnections,
      maxConnectionsPerClient: server.limits.maxConnectionsPerClient,
      pool: parts.pool,
      admin,
      async close() {
        await server.close();
        await parts?.close();
        await ops.close();
      },
    };
  } catch (e) {
    await server.close();
    await parts?.close();
    await ops.close();
    throw e;
  }
}

/** The service on a prepared database: its handler (worker threads or inline) and /healthz. */
async function openService(target: DatabaseTarget, o: ReferenceOptions, ops: Ops) {
  const log = ops.line;
  // No replay log is written beside a read-only database: it goes to a folder of this process's own.
  const replayDir = o.readOnly ? mkdtempSync(join(tmpdir(), 'evgen-replay-')) : undefined;
  const workers = o.workers ?? defaultWorkers();
  const config: ServiceConfig = {
    database: target,
    readOnly: o.readOnly ?? false,
    poolSize: workers === 0 ? POOL_INLINE : POOL_PER_WORKER,
    replay: o.replay ?? 'database',
    readCache: o.readCache ?? true,
    testForms: o.testForms ?? true,
    cors: o.cors ?? [],
    ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
    ...(replayDir ? { replayPath: join(replayDir, 'replay-log') } : {}),
    ...(ops.controls ? { controls: ops.controls } : {}),
    stats: ops.instanceStats(target, workers),
  };
  const database = await openReferenceDatabase(target, { migrate: false });
  // The health check's own store: it answers even while every worker is busy.
  const healthStore = openStore(target, { ...config, poolSize: 1 });
  const closeStores = async () => {
    await healthStore.close();
    await database.close();
    if (replayDir) rmSync(replayDir, { recursive: true, force: true });
  };
  let pool: WorkerPool | undefined;
  let handler: ServiceHandler;
  let stop: () => Promise<void>;
  if (workers === 0) {
    const inline = createReferenceHandler(config, ops.request);
    handler = inline.handler;
    stop = inline.close;
  } else {
    // No worker of a lane ready (WorkerStartError): nothing is served, and the process exits.
    const started = await WorkerPool.start({
      config,
      workers,
      log,
      onRequest: ops.request,
      onExit: ops.workerExited,
    }).catch(async (e: unknown) => {
      await closeStores();
      throw e;
    });
    pool = started;
    if ((o.smallReads ?? 'loop') === 'loop') {
      const loop = createReferenceHandler({ ...config, poolSize: POOL_SMALL_READS }, ops.request);
      handler = (req) => {
        const route = routeOf(req);
        return route === 'loop' ? loop.handler(req) : started.handle(req, route);
      };
      stop = async () => {
        await started.close();
        await loop.close();
      };
    } else {
      handler = (req) => started.handle(req);
      stop = () => started.close();
    }
  }
  const running = pool && (() => pool.running);
  const health = healthRoute(
    healthCheck({
      health: () => healthStore.health(),
      workers,
      ...(running ? { running } : {}),
    }),
    log,
  );
  return {
    database,
    workers,
    pool,
    replayPath: config.replayPath,
    handler: (req: ServiceRequest) =>
      req.method === 'GET' && req.url === HEALTH_PATH ? health() : handler(req),
    // Answers from worker threads own their buffers: freed once written (see detach.ts).
    ...(pool ? { release: (answer: ServiceResponse) => pool.release(answer) } : {}),
    async close() {
      await stop();
      await closeStores();
    },
  };
}
