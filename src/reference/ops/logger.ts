// The reference service's log, through pino: one JSON line per request and per event, on stdout,
// written asynchronously in batches (line-writer.ts: a slow reader holds at most LOG_BUFFER_BYTES;
// past it lines are dropped and counted, not held). Secrets are removed by configuration (pino's redact paths), whatever an
// event line happens to hold; a request line holds only its record's named fields
// (request-line.ts). Levels: a request line is info, warn when the service could not serve it
// (a Receiver fault such as Unavailable), error when it failed (the internal fault). The banner and the demo key go to stderr
// (src/cli/service-commands.ts), never through this log.
import { pino, type Level, type Logger } from 'pino';
import { WIRE } from '@evgen/event-management/service';
import type { LogLevel } from './options.js';
import { fdSink, LineWriter } from './line-writer.js';
import { requestLine } from './request-line.js';

/** Field names that never reach a log line, at the top of a line or one level down. */
const SECRET_FIELDS = [
  'secretKey',
  'SecretKey',
  'signature',
  'Signature',
  'apiKey',
  'APIKey',
  'adminToken',
  'authorization',
  'password',
];
export const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  'headers["x-admin-token"]',
];
export const REDACTED = '[redacted]';
/** What an asynchronous log may hold for a slow reader of stdout. */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

export interface LogOptions {
  readonly level?: LogLevel;
  /** Where lines go, one call per line without its newline (tests); default stdout, asynchronously. */
  readonly write?: (line: string) => void;
}

export interface ServiceLog {
  readonly logger: Logger;
  /** A line of a request served (see requestRecord in service.ts). */
  readonly request: (record: RequestRecord) => void;
  /** A line that parts of the service write as JSON text: worker events, refused connections. */
  readonly line: (text: string) => void;
  /** Lines dropped because stdout did not keep up. */
  readonly dropped: () => number;
  /** Writes out what is buffered (at close). */
  flush(): void;
}

/** What the service logs about one request. */
export interface RequestRecord {
  readonly operation: string | undefined;
  readonly binding: string | undefined;
  readonly status: number;
  readonly durationMs: number;
  readonly apiKeyName: string | undefined;
  readonly faultCode: string | undefined;
  readonly requestId?: string;
  readonly traceId?: string;
  /** The caller's traceparent, for the server span (tracing.ts); not logged. */
  readonly traceparent?: string;
  readonly worker?: number;
  readonly error?: { readonly name: string; readonly message: string; readonly code?: string };
}

/** Events worth more than info, by their `event` field. */
const EVENT_LEVELS: Readonly<Record<string, Level>> = {
  'worker exited': 'warn',
  'worker error': 'error',
  'worker not replaced: it failed to start repeatedly': 'error',
  'connections refused': 'warn',
  'server error': 'error',
};

/** Fault codes that say the service failed (SOAP 1.2 Receiver), not the request (Sender). */
const SERVICE_SIDE: ReadonlySet<string> = new Set(
  WIRE.faults.codes.filter((c) => c.soap12.endsWith(':Receiver')).map((c) => c.code),
);
/** Whether a request's fault says the service failed (whatever status its binding gave it). */
export const serviceFailed = (faultCode: string | undefined): boolean =>
  faultCode !== undefined && SERVICE_SIDE.has(faultCode);

export function requestLevel(r: Pick<RequestRecord, 'status' | 'faultCode'>): Level {
  if (r.faultCode !== undefined && r.faultCode === WIRE.faults.raisedFor.internal) return 'error';
  return serviceFailed(r.faultCode) || (r.faultCode === undefined && r.status >= 500)
    ? 'warn'
    : 'info';
}

export function createServiceLog(o: LogOptions = {}): ServiceLog {
  const write = o.write;
  const destination = write
    ? { write: (s: string) => write(s.endsWith('\n') ? s.slice(0, -1) : s) }
    : new LineWriter(fdSink(1), { maxBytes: LOG_BUFFER_BYTES });
  const logger = pino(
    {
      level: o.level ?? 'info',
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
    },
    destination,
  );
  return {
    logger,
    // Its named fields only (request-line.ts), to the same destination, from the same level.
    request: (record) => {
      const level = requestLevel(record);
      if (logger.isLevelEnabled(level)) destination.write(`${requestLine(level, record)}\n`);
    },
    line: (text) => {
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return logger.info({ msg: text });
      }
      const { time: _time, ...rest } = fields; // pino stamps its own
      const status = typeof rest.status === 'number' ? rest.status : 0;
      const event = typeof rest.event === 'string' ? EVENT_LEVELS[rest.event] : undefined;
      logger[event ?? (status >= 500 ? 'warn' : 'info')](rest);
    },
    dropped: () => ('dropped' in destination ? destination.dropped : 0),
    flush: () => ('flushSync' in destination ? destination.flushSync() : undefined),
  };
}
