// One instance of the reference service: a store on the database, the handlers, and the generated
// server around them. Built once per worker thread (or once on the request loop with workers: 0).
import type { LogEntry, ServiceHandler, ServiceRequest } from '@evgen/runtime';
import { createEventService } from '@evgen/event-management/server';
import { openStore, type DatabaseTarget } from './database.js';
import { referenceHandlers } from './handlers/index.js';
import type { RequestRecord } from './ops/logger.js';
import { givenRequestId, traceIdOf } from './ops/request-id.js';
import { withControls } from './ops/controls.js';
import { INLINE, storeObservers, type InstanceStatsBuffers } from './ops/instance-stats.js';

export interface ServiceConfig {
  readonly database: DatabaseTarget;
  readonly readOnly: boolean;
  /** PostgreSQL: connections each instance of the service may hold at once. */
  readonly poolSize: number;
  /** Where replay entries go: the database, or nowhere (bench only: the cost of the record). */
  readonly replay: 'database' | 'off';
  /** SQLite: small reads answered from memory while nothing was committed since (read-cache.ts). */
  readonly readCache: boolean;
  /** A read-only service keeps its replay record in a writable file of its own. */
  readonly replayPath?: string;
  /** Test forms on the help pages of operations. */
  readonly testForms: boolean;
  /** Origins allowed to call the service from browsers (CORS). */
  readonly cors: readonly string[];
  /** Fixes the namespace and the WSDL's addresses (default: each request's Host header). */
  readonly publicUrl?: string;
  /** The armed test controls (ops/controls.ts), shared with the request loop; none when off. */
  readonly controls?: SharedArrayBuffer;
  /** Where each instance reports its pool and replay upkeep for /metrics (ops/instance-stats.ts). */
  readonly stats?: InstanceStatsBuffers;
}

// The browser bundle of the test forms is built (esbuild, about a quarter of a second) when a page
// first asks for it.
const browserClient = async () => (await import('../browser/bundle.js')).buildBrowserClient();

/**
 * The log record of one request (never the secret or the signature), tagged with its request id,
 * its trace id (W3C traceparent) and its worker; the error under a fault (the driver's, under
 * Unavailable; what was thrown, under Internal) by name, message and code. Stacks go to stderr
 * (onDiagnostic), not into the record.
 */
export function requestRecord(
  entry: LogEntry,
  req: ServiceRequest,
  worker: number | undefined,
): RequestRecord {
  const { error } = entry;
  const { traceparent } = req.headers;
  const traceId = traceIdOf(traceparent);
  // One literal of every field (unset ones undefined): one object shape for every record.
  return {
    operation: entry.operation,
    binding: entry.binding,
    status: entry.status,
    durationMs: Math.round(entry.durationMs * 100) / 100,
    apiKeyName: entry.apiKeyName,
    faultCode: entry.faultCode,
    requestId: entry.requestId,
    traceId,
    traceparent: traceId === undefined ? undefined : traceparent,
    worker,
    error: error && { name: error.name, message: error.message, code: error.code },
  };
}

export function createReferenceHandler(
  config: ServiceConfig,
  onRequest: (record: RequestRecord) => void,
  worker?: number,
): { handler: ServiceHandler; close: () => Promise<void> } {
  const store = openStore(config.database, {
    ...config,
    ...(config.stats ? { observe: storeObservers(config.stats, worker ?? INLINE) } : {}),
  });
  const handlers = referenceHandlers(store);
  const handler = createEventService(
    config.controls ? withControls(handlers, config.controls) : handlers,
    {
      lookupKey: (apiKey) => store.lookupKey(apiKey),
      replayStore: config.replay === 'off' ? false : store.replay,
      testForms: config.testForms ? { clientScript: browserClient } : false,
      ...(config.cors.length ? { cors: { origins: config.cors } } : {}),
      ...(config.publicUrl ? { publicBaseUrl: config.publicUrl } : {}),
      // The request loop gave the request its id (ops/request-id.ts).
      requestId: givenRequestId,
      // Internal errors' stacks go to stderr, tagged with the worker; never to this record.
      onLog: (entry, req) => onRequest(requestRecord(entry, req, worker)),
      onDiagnostic: (message) =>
        process.stderr.write(`${message}${worker === undefined ? '' : ` (worker ${worker})`}\n`),
    },
  );
  return { handler, close: () => store.close() };
}
