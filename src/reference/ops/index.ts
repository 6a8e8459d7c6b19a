// What an operator (and an integrator's CI) needs around the reference service, wired in one place:
// the log (logger.ts), request ids (request-id.ts), metrics (metrics.ts) and the admin listener
// (admin.ts). serve.ts creates it first, hands it the parts as they start, and closes it last.
import type { Server } from 'node:http';
import type { ServiceHandler, ServiceResponse } from '@evgen/runtime';
import type { ReferenceDatabase } from '../database.js';
import type { WorkerPool } from '../workers.js';
import { startAdmin, type AdminListener, type AdminRoute } from './admin.js';
import { createServiceLog, type RequestRecord } from './logger.js';
import type { LogLevel } from './options.js';
import { createMetrics } from './metrics.js';
import { withRequestIds } from './request-id.js';

export interface OpsOptions {
  /** Where log lines go (tests); default stdout. */
  readonly log?: (line: string) => void;
  readonly logLevel?: LogLevel;
  /** The admin listener (/metrics, test controls); none when absent. */
  readonly admin?: { readonly host?: string; readonly port: number };
}

/** The parts of a started service the metrics read. */
export interface OpsParts {
  readonly server: Server;
  readonly pool: WorkerPool | undefined;
  readonly database: ReferenceDatabase;
}

export function createOps(o: OpsOptions) {
  const log = createServiceLog({
    ...(o.log ? { write: o.log } : {}),
    ...(o.logLevel ? { level: o.logLevel } : {}),
  });
  let parts: OpsParts | undefined;
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
    droppedLogLines: log.dropped,
  });
  let admin: AdminListener | undefined;
  return {
    /** Event lines of the service's parts (JSON text). */
    line: (text: string) => log.line(text),
    /** The record of a request served, from whichever instance served it. */
    request: (record: RequestRecord) => {
      log.request(record);
      metrics.request(record);
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
    /** Starts the admin listener once the service's parts are up. */
    async start(started: OpsParts, controls?: AdminRoute): Promise<AdminListener | undefined> {
      parts = started;
      if (!o.admin) return undefined;
      admin = await startAdmin({
        ...o.admin,
        registry: metrics.registry,
        ...(controls ? { controls } : {}),
      });
      return admin;
    },
    async close() {
      await admin?.close();
      log.flush();
    },
  };
}
export type Ops = ReturnType<typeof createOps>;
