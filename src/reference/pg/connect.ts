// Connections to PostgreSQL (node-postgres): a bounded pool per store, every statement under a
// time-out, integers as numbers, and the errors that mean "the database cannot be reached"
// turned into the Unavailable fault (503 with Retry-After on every binding), so clients retry
// what is safe to retry. A pool reconnects by itself: a connection the server
// closed (a restart) is dropped, and the next request opens a new one.
import pg from 'pg';
import { ServiceFault } from '@evgen/runtime';
import { unavailable } from '../faults.js';
import { ListParam, type Param, type Program, type Query } from '../store/program.js';

/** A statement that runs (or waits for a lock) longer than this is cancelled: SQLite's busy time-out. */
export const STATEMENT_TIMEOUT_MS = 5_000;
/** A transaction left open by a client that went quiet is ended by the server after this. */
export const IDLE_IN_TRANSACTION_MS = 10_000;
/** How long a request waits for a connection of the pool (all busy, or the server not answering). */
export const CONNECT_TIMEOUT_MS = 3_000;

export { isPostgresUrl } from './url.js';

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

const INT8 = 20;
/** bigint → number: every id, count and amount of the reference service is a safe integer. */
function int8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`integer ${text} does not fit a JavaScript number`);
  return n;
}
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): ((text: string) => unknown) =>
    oid === INT8
      ? int8
      : (pg.types.getTypeParser(oid, format) as (
          text: string,
        ) => unknown)) as typeof pg.types.getTypeParser,
};

export function createPool(url: string, max: number, name = 'evgen'): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    application_name: name,
    types: TYPES,
  });
  // An idle connection the server closed (restart, time-out): the pool drops it; nothing to do.
  pool.on('error', () => undefined);
  return pool;
}

// Connection exceptions (08), operator intervention (57P01-57P03: shutdown, crash, starting up),
// too many connections (53300), a cancelled statement (57014: the time-out) and the socket errors.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300|57014)$/;
const STATEMENT_CANCELLED = '57014';
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

/** True when the error says the database cannot answer now, rather than that a statement is wrong. */
export function isUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code)))
    return true;
  return e instanceof Error && UNAVAILABLE_MESSAGE.test(e.message);
}

/**
 * The error as the service answers it: unavailable → Unavailable (503 with Retry-After); others as
 * they are. The driver's text (addresses, time-outs) goes to the log only, as the fault's cause.
 */
export function asFault(e: unknown): unknown {
  if (e instanceof ServiceFault || !isUnavailable(e)) return e;
  const slow = (e as { code?: unknown }).code === STATEMENT_CANCELLED;
  const why = slow ? 'database busy: a statement ran past its time-out' : 'database unreachable';
  return unavailable(why, e);
}

/** Transactions PostgreSQL may refuse under concurrency, to be run again: serialization, deadlock. */
export const isRetryable = (e: unknown) => {
  const code = (e as { code?: unknown }).code;
  return code === '40001' || code === '40P01';
};

const bound = (p: Param): unknown =>
  p instanceof ListParam
    ? p.values
    : p instanceof Uint8Array
      ? Buffer.from(p.buffer, p.byteOffset, p.byteLength)
      : p;

async function execute(client: pg.ClientBase, q: Query): Promise<unknown> {
  const s = q.statement;
  const res = await client.query<unknown[]>({
    name: s.name,
    text: s.postgres,
    values: q.params.map(bound),
    rowMode: 'array',
  });
  const first = res.rows[0];
  switch (q.kind) {
    case 'row':
      return first === undefined ? undefined : q.list.row(first);
    case 'rows':
      return q.list.rows(res.rows);
    case 'value':
      return first === undefined ? undefined : first[0];
    case 'values':
      return res.rows.map((r) => r[0]);
    case 'run':
      return res.rowCount ?? 0;
  }
}

/** Runs a store program to its end on one connection (in a transaction when it reads twice). */
export async function runPostgres<T>(client: pg.ClientBase, program: Program<T>): Promise<T> {
  let step = program.next();
  while (!step.done) step = program.next(await execute(client, step.value));
  return step.value;
}
