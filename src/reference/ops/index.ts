// What an operator (and an integrator's CI) needs around the reference service, wired in one place:
// the log (logger.ts), request ids (request-id.ts), metrics (metrics.ts) and the admin listener
// (admin.ts). serve.ts creates it first, hands it the parts as they start, and closes it last.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { replayLogOf } from '../replay-log/replay-log.js';
import type { ServiceHandler, ServiceResponse } from '@evgen/runtime';
import type { ReferenceDatabase } from '../database.js';
import type { WorkerPool } from '../workers.js';
import type { DatabaseTarget } from '../database.js';
import { StartupError } from '../sqlite/startup.js';
import { startAdmin, type AdminListener } from './admin.js';
import { ControlTable, controlsBuffer } from './controls.js';
import { MIN_ADMIN_TOKEN, controlsRoute } from './controls-route.js';
import { sqliteReset, type DatabaseReset } from './reset.js';
import { postgresReset } from '../pg/reset.js';
import { createServiceLog, type RequestRecord } from './logger.js';
import type { LogLevel } from './options.js';
import { createMetrics } from './metrics.js';
import {
  freePoolSlot,
  instanceStatsBuffers,
  replayTotals,
  sumPools,
  type InstanceStatsBuffers,
} from './instance-stats.js';
import { withRequestIds } from './request-id.js';
import { recordServerSpan } from './tracing.js';

export interface OpsOptions {
  /** Where log lines go (tests); default stdout. */
  readonly log?: (line: string) => void;
  readonly logLevel?: LogLevel;
  /** The admin listener (/metrics, test controls); none when absent. */
  readonly admin?: { readonly host?: string; readonly port: number };
  /** Test controls on the admin listener, behind this token (see controls-route.ts). */
  readonly testControls?: { readonly token: string };
}

/** The parts of a started service the metrics read. */
export interface OpsParts {
  readonly server: Server;
  readonly pool: WorkerPool | undefined;
  readonly database: ReferenceDatabase;
  readonly target: DatabaseTarget;
  readonly readOnly: boolean;
  /** The replay log's own folder (SQLite), when it is not beside the database. */
  readonly replayPath: string | undefined;
}

/** The replay record's size: its log's files beside a SQLite database, or its PostgreSQL table. */
async function replayRecordBytes(p: OpsParts): Promise<number | undefined> {
  if (p.target.dialect === 'postgres') {
    const [row] = await p.database.query<{ bytes: string }>(
      "SELECT pg_total_relation_size('replay_record') AS bytes",
    );
    return row ? Number(row.bytes) : undefined;
  }
  const dir = p.replayPath ?? replayLogOf(p.target.path);
  // A segment deleted between the listing and its stat (pruned) counts nothing.
  const names = await readdir(dir).catch(() => []);
  const sizes = await Promise.all(
    names.map((n) =>
      stat(join(dir, n)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/** Options that cannot work together, refused before anything starts. */
export function checkOpsOptions(o: OpsOptions): void {
  if (!o.testControls) return;
  if (!o.admin)
    throw new StartupError('--test-controls are served on the admin listener: give --admin-port');
  if (o.testControls.token.length < MIN_ADMIN_TOKEN)
    throw new StartupError(
      `--test-controls need an admin token of at least ${MIN_ADMIN_TOKEN} characters (EVGEN_ADMIN_TOKEN)`,
    );
}

export function createOps(o: OpsOptions) {
  const log = createServiceLog({
    ...(o.log ? { write: o.log } : {}),
    ...(o.logLevel ? { level: o.logLevel } : {}),
  });
  let parts: OpsParts | undefined;
  let stats: InstanceStatsBuffers | undefined;
  const metrics = createMetrics({
    openConnections: () =>
      new Promise((done) => {
        if (!parts) return done(0);
        parts.server.getConnections((e, n) => done(e ? 0 : n));
      }),
    lanes: () => {
      const stats = parts?.pool?.laneStats;
      const none = { queued: 0, running: 0, restarts: 0 };
      return stats ?? { quick: none, bulk: none };
    },
    replayRecordBytes: () => (parts ? replayRecordBytes(parts) : Promise.resolve(undefined)),
    droppedLogLines: log.dropped,
  });
  let admin: AdminListener | undefined;
  let reset: DatabaseReset | undefined;
  // Shared with every worker thread (ServiceConfig.controls) before they start.
  const controls = o.testControls ? controlsBuffer() : undefined;
  return {
    /** Event lines of the service's parts (JSON text). */
    line: (text: string) => log.line(text),
    /** Writes what the log holds: the start-up lines go out before the banner that follows them. */
    flush: () => log.flush(),
    /** The record of a request served, from whichever instance served it. */
    request: (record: RequestRecord) => {
      log.request(record);
      metrics.request(record);
      recordServerSpan(record);
    },
    /** The listener's handler with request ids, and its release mapped back to the inner answers. */
    front(
      handler: ServiceHandler,
      release?: (answer: ServiceResponse) => void,
    ): { handler: ServiceHandler; release: (answer: ServiceResponse) => void } {
      const ids = withRequestIds(handler);
      return { handler: ids.handler, release: (answer) => release?.(ids.original(answer)) };
    },
    /** Counts refused connections of the public listener. */
    listening(server: Server) {
      server.on('drop', () => metrics.refusedConnection());
    },
    controls,
    /**
     * The shared memory where the instances serving calls (`workers` per lane, or the request
     * loop) report their pools and their replay record's upkeep (ServiceConfig.stats).
     */
    instanceStats(target: DatabaseTarget, workers: number): InstanceStatsBuffers {
      // A slot per instance serving calls: each lane's workers, and the request loop's (the small
      // reads beside workers, or every call with --workers 0).
      const b = instanceStatsBuffers(2 * workers + 1, target.dialect === 'postgres');
      const pools = b.pools;
      metrics.instances({
        ...(pools ? { pools: () => sumPools(pools) } : {}),
        replay: () => replayTotals(b.replay),
      });
      stats = b;
      return b;
    },
    /** A worker thread exited: its pool's connections are gone with it. */
    workerExited: (id: number) => {
      if (stats?.pools) freePoolSlot(stats.pools, id);
    },
    /** Starts the admin listener once the service's parts are up. */
    async start(started: OpsParts): Promise<AdminListener | undefined> {
      parts = started;
      if (!o.admin) return undefined;
      const { target } = started;
      if (controls && !started.readOnly)
        reset =
          target.dialect === 'sqlite' ? sqliteReset(target.path) : await postgresReset(target.url);
      admin = await startAdmin({
        ...o.admin,
        registry: metrics.registry,
        ...(controls && o.testControls
          ? {
              controls: controlsRoute({
                token: o.testControls.token,
                table: new ControlTable(controls),
                log: log.line,
                ...(reset ? { reset } : {}),
              }),
            }
          : {}),
      });
      return admin;
    },
    async close() {
      await admin?.close();
      await reset?.close();
      log.flush();
    },
  };
}
export type Ops = ReturnType<typeof createOps>;
