// Raw requests to the server under test, signed with exactly the values a check chooses, and
// answers described for people: a fault by its code and reason text, never a cut envelope.
import {
  buildRequest,
  networkCause,
  readFault,
  signRequest,
  type AuthValues,
  type Binding,
  type FaultReading,
  type PreparedRequest,
  type RequestOperation,
} from '../transport/index.js';
import { bindingDef, type Ctx } from './context.js';

export interface Raw {
  /** 0 when no answer came. */
  readonly status: number;
  readonly type: string;
  readonly body: Uint8Array;
  /**
   * Why no answer came (the connection refused, closed or reset, a time-out): the check that sent
   * the request fails with it, and the run goes on.
   */
  readonly noAnswer?: string;
}

/** Correctly signed values for `operation` at `timestamp` (stale or malformed ones included). */
export async function signed(c: Ctx, operation: string, timestamp: string): Promise<AuthValues> {
  return {
    Timestamp: timestamp,
    Operation: operation,
    Signature: await signRequest(c.o.secretKey, operation, timestamp),
    APIKey: c.o.apiKey,
  };
}

/**
 * The request for an operation call (an operation of the service, by name, or one made up);
 * `auth` null sends no credentials, undefined fresh ones.
 */
export function prepare<P extends object>(
  c: Ctx,
  op: string | RequestOperation<P>,
  params: P,
  binding: Binding,
  auth?: AuthValues | null,
): Promise<PreparedRequest> {
  return buildRequest(
    {
      endpoint: c.endpoint,
      ns: c.ns,
      apiKey: c.o.apiKey,
      secretKey: c.o.secretKey,
      auth: c.o.auth,
      timestamp: c.clock.next(),
      ...(auth !== undefined ? { tamper: () => auth ?? undefined } : {}),
    },
    typeof op === 'string' ? c.o.operations[op]! : op,
    params,
    bindingDef(c, binding),
  );
}

/** The answer to a request, or what kept it from coming: never a rejection. */
export async function fetchRaw(url: string, init: RequestInit): Promise<Raw> {
  try {
    const res = await fetch(url, init);
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      body: new Uint8Array(await res.arrayBuffer()), // the body can fail too
    };
  } catch (e) {
    return { status: 0, type: '', body: new Uint8Array(0), noAnswer: networkCause(e) };
  }
}

export async function send(
  c: Ctx,
  opName: string,
  params: object,
  binding: Binding,
  auth?: AuthValues | null,
): Promise<Raw> {
  const req = await prepare(c, opName, params, binding, auth);
  return fetchRaw(req.url, req.init);
}

/**
 * The fault an answer carries (SOAP 1.1, SOAP 1.2 or a text body), if it is one: read as the client
 * reads it (transport/fault-reading.ts), so the two never disagree.
 */
export function faultOf(c: Ctx, raw: Raw): FaultReading | undefined {
  return readFault(raw.body, raw.type, c.o.wire.faults);
}

/** One line for a report: `HTTP 500, fault soap:Client [AuthenticationFailed] "reason"`. */
export function describe(c: Ctx, raw: Raw): string {
  if (raw.noAnswer !== undefined) return `no answer: ${raw.noAnswer}`;
  const f = faultOf(c, raw);
  if (f)
    return `HTTP ${raw.status}, fault ${[f.soapCode, f.detailCode && `[${f.detailCode}]`, f.exceptionType].filter(Boolean).join(' ')} ${JSON.stringify(f.reason)}`;
  const text = new TextDecoder().decode(raw.body).trim();
  const line = text.split('\n')[0]!.slice(0, 200);
  return `HTTP ${raw.status}, ${raw.type || 'no content type'}${text ? `: ${JSON.stringify(line)}` : ', empty body'}`;
}

/** Why an answer says the operation is not implemented, if it does. */
export function notImplemented(c: Ctx, raw: Raw): string | undefined {
  if (raw.status === 200) return undefined;
  const f = faultOf(c, raw);
  const said = f ? `${f.detailCode ?? ''} ${f.reason}` : new TextDecoder().decode(raw.body);
  // A table may name no code for it (the role is optional): no detail code is then no match.
  const code = c.o.wire.faults.raisedFor.notImplemented;
  if (
    raw.status === 501 ||
    (code !== undefined && f?.detailCode === code) ||
    /not\s*implemented|did not recognize|unknown operation/i.test(said)
  )
    return describe(c, raw);
  return undefined;
}
