// Request ids and W3C trace context. A caller's X-Request-Id is kept when it is short and plain (it
// goes into log lines, fault texts and a response header); anything else, or none, gets a new id.
// The id is decided on the request loop, before a worker sees the request, and returned on every
// answer. A `traceparent` (W3C Trace Context) is read for its trace id, which the log line keeps.
import { randomUUID } from 'node:crypto';
import type { ServiceHandler, ServiceRequest, ServiceResponse } from '@evgen/runtime';

export const REQUEST_ID_HEADER = 'x-request-id';
/** The longest id accepted from a caller; a longer one is replaced, never cut. */
export const MAX_REQUEST_ID_LENGTH = 128;
/** Visible ASCII without quotes, spaces, commas or semicolons: safe in a header, a log, a text. */
const PLAIN_ID = new RegExp(`^[A-Za-z0-9._:/+=@-]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/** The caller's id when it is plain and short enough, else a new one (a random UUID). */
export function requestIdOf(sent: string | undefined): string {
  return sent !== undefined && PLAIN_ID.test(sent) ? sent : randomUUID();
}

// version-traceid-parentid-flags, lower-case hex; a later version may append fields after a dash.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/** The caller's trace context from a valid W3C traceparent header; undefined for none or an invalid one. */
export function traceContextOf(
  traceparent: string | undefined,
): { traceId: string; parentId: string; flags: number } | undefined {
  if (traceparent === undefined || traceparent.length > 512) return undefined;
  const m = TRACEPARENT.exec(traceparent);
  if (!m) return undefined;
  const [, version, traceId, parentId, flags, rest] = m;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ZEROS.test(traceId!) || ZEROS.test(parentId!)) return undefined;
  return { traceId: traceId!, parentId: parentId!, flags: parseInt(flags!, 16) };
}

/** The trace id of a valid W3C traceparent header; undefined for none or an invalid one. */
export const traceIdOf = (traceparent: string | undefined): string | undefined =>
  traceContextOf(traceparent)?.traceId;

/** The id a front handler gave the request (the header it set). */
export const givenRequestId = (req: ServiceRequest): string | undefined =>
  req.headers[REQUEST_ID_HEADER];

/** Where an answer with its id keeps the answer `handler` gave (answers are tracked by identity, see detach.ts). */
const ORIGINAL = Symbol('original answer');
type WithOriginal = ServiceResponse & { readonly [ORIGINAL]?: ServiceResponse };

/**
 * `headers` and the id, in a fresh object. Object.assign copies a request's header dictionary
 * whole; a spread followed by one more key makes V8 build the copy key by key.
 */
function withId<V extends string | undefined>(
  headers: Readonly<Record<string, V>>,
  id: string,
): Record<string, V | string> {
  const out: Record<string, V | string> = Object.assign({}, headers);
  out[REQUEST_ID_HEADER] = id;
  return out;
}

/** An answer with its id, of one shape for every answer (a literal with a symbol key is not). */
class AnswerWithId implements WithOriginal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly [ORIGINAL]: ServiceResponse;
  constructor(res: ServiceResponse, id: string) {
    this.status = res.status;
    this.headers = withId(res.headers, id);
    this.body = res.body;
    this[ORIGINAL] = res;
  }
}

/**
 * `handler` with request ids: each request reaches it with its decided X-Request-Id, and every
 * answer carries that header. `original` maps an answer back to the one `handler` gave: through a
 * property of the answer, not a WeakMap, whose entries (one per answer, each short-lived) cost the
 * garbage collector more than the rest of a small call's work on the request loop.
 */
export function withRequestIds(handler: ServiceHandler): {
  handler: ServiceHandler;
  original: (answer: ServiceResponse) => ServiceResponse;
} {
  return {
    handler: async (req) => {
      const id = requestIdOf(req.headers[REQUEST_ID_HEADER]);
      const res = await handler({ ...req, headers: withId(req.headers, id) });
      return new AnswerWithId(res, id);
    },
    original: (answer: WithOriginal) => answer[ORIGINAL] ?? answer,
  };
}
