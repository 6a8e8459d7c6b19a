// A request's log line, written without pino's generic path: a request record has a fixed set of
// fields, so the line is those fields by name, in a fixed order, each only when set. Nothing else
// a record might carry reaches the line (no redaction needed: a field not named here is not
// written), and what pino spent walking, redacting and serialising each record is gone.
import type { Level } from 'pino';
import { isoNow } from '@evgen/runtime/internal';
import type { RequestRecord } from './logger.js';

/** The fields of a request line after its level and time, in order. */
const FIELDS = [
  'operation',
  'binding',
  'status',
  'durationMs',
  'apiKeyName',
  'faultCode',
  'requestId',
  'traceId',
  'worker',
] as const satisfies readonly (keyof RequestRecord)[];

/** The JSON line (no newline) of `record` at `level`, stamped `time` (ISO 8601, as pino's isoTime). */
export function requestLine(level: Level, record: RequestRecord, time = isoNow()): string {
  let line = `{"level":"${level}","time":"${time}"`;
  for (const field of FIELDS) {
    const value = record[field];
    if (value !== undefined) line += `,"${field}":${JSON.stringify(value)}`;
  }
  const e = record.error;
  if (e) line += `,"error":${JSON.stringify({ name: e.name, message: e.message, code: e.code })}`;
  return `${line}}`;
}
