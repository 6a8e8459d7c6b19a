// A request's log line, written without pino's generic path: a request record has a fixed set of
// fields, so the line is those fields by name, in a fixed order, each only when set. Nothing else
// a record might carry reaches the line (no redaction needed: a field not named here is not
// written), and what pino spent walking, redacting and serialising each record is gone.
import type { Level } from 'pino';
import { isoNow } from '@evgen/runtime/internal';
import type { RequestRecord } from './logger.js';

/** The most strings whose JSON form is kept (quoted): operations, bindings, key names, faults. */
export const QUOTED_LIMIT = 1_024;
const quotedForms = new Map<string, string>();

/**
 * `s` as JSON. Most fields of a line come from a few values, so their forms are kept, up to
 * QUOTED_LIMIT; past it each is made anew, never dropping one kept.
 */
function quoted(s: string): string {
  let q = quotedForms.get(s);
  if (q === undefined) {
    q = JSON.stringify(s);
    if (quotedForms.size < QUOTED_LIMIT) quotedForms.set(s, q);
  }
  return q;
}

/** How many quoted forms are kept (tests: the bound holds). */
export const quotedFormsKept = (): number => quotedForms.size;

/** A number as JSON: one that is not finite is null, as JSON.stringify writes it. */
const numeral = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/**
 * The JSON line (no newline) of `record` at `level`, stamped `time` (ISO 8601, as pino's isoTime):
 * level, time, operation, binding, status, durationMs, apiKeyName, faultCode, requestId, traceId,
 * worker, error. Fields are read by name, one by one: a loop over their names read each through a
 * computed key, which V8 cannot specialise to the record's shape.
 */
export function requestLine(level: Level, record: RequestRecord, time = isoNow()): string {
  const r = record;
  let line = `{"level":"${level}","time":"${time}"`;
  if (r.operation !== undefined) line += `,"operation":${quoted(r.operation)}`;
  if (r.binding !== undefined) line += `,"binding":${quoted(r.binding)}`;
  line += `,"status":${numeral(r.status)},"durationMs":${numeral(r.durationMs)}`;
  if (r.apiKeyName !== undefined) line += `,"apiKeyName":${quoted(r.apiKeyName)}`;
  if (r.faultCode !== undefined) line += `,"faultCode":${quoted(r.faultCode)}`;
  // Each request's own: not kept.
  if (r.requestId !== undefined) line += `,"requestId":${JSON.stringify(r.requestId)}`;
  if (r.traceId !== undefined) line += `,"traceId":${JSON.stringify(r.traceId)}`;
  if (r.worker !== undefined) line += `,"worker":${numeral(r.worker)}`;
  const e = r.error;
  if (e) line += `,"error":${JSON.stringify({ name: e.name, message: e.message, code: e.code })}`;
  return `${line}}`;
}
