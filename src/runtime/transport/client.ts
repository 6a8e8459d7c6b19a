// The client engine behind every generated client method: builds each binding's request, signs it
// with a fresh timestamp, decodes the answer or raises a typed error. Uses only fetch and Web
// Crypto, so it runs in Node and in browsers.
import { NO_ELEMENT, readSoapEnvelope, readXml, writeSoapEnvelope } from '../xml/index.js';
import { TimestampClock, signRequest, type AuthScheme, type AuthValues } from './auth.js';
import { type Binding, CONTENT_TYPES, type OperationDef, namespaceFor } from './binding.js';
import { ServiceError, TransportError, errorFromResponse, soapFaultOf } from './client-errors.js';

export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

export interface ClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly auth: AuthScheme;
  readonly endpointPath: string;
  readonly binding?: Binding;
  /** {soap_namespace}; default: the base URL with the https scheme plus the version path. */
  readonly namespace?: string;
  readonly timeoutMs?: number;
  /** Opt-in; only operations that change nothing are retried, on network errors and HTTP 503. */
  readonly retry?: RetryPolicy;
  readonly fetch?: typeof fetch;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly binding?: Binding;
}

export interface Transport {
  call<P, R>(op: OperationDef<P, R>, params: P, options?: CallOptions): Promise<R>;
}

export interface PreparedRequest {
  readonly url: string;
  readonly init: RequestInit;
}

export interface RequestSigner {
  readonly endpoint: string;
  readonly ns: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly auth: AuthScheme;
  readonly timestamp: string;
  /** Changes the signed values (conformance tests send deliberately wrong ones); undefined sends none. */
  readonly tamper?: (values: AuthValues) => AuthValues | undefined;
}

/** One binding's HTTP request for an operation call, signed (the client and the conformance runner share it). */
export async function buildRequest<P>(
  s: RequestSigner,
  op: OperationDef<P, unknown>,
  params: P,
  binding: Binding,
): Promise<PreparedRequest> {
  const signed = {
    Timestamp: s.timestamp,
    Operation: op.name,
    Signature: await signRequest(s.secretKey, op.name, s.timestamp),
    APIKey: s.apiKey,
  };
  const values = s.tamper ? s.tamper(signed) : signed;
  if (binding === 'soap11' || binding === 'soap12') {
    const body = writeSoapEnvelope(
      binding === 'soap11' ? '1.1' : '1.2',
      values ? s.auth.encodeHeader(values, s.ns) : undefined,
      op.encodeSoapRequest(params, s.ns),
    );
    const action = `${s.ns}${op.name}`;
    const headers: Record<string, string> =
      binding === 'soap11'
        ? { 'content-type': CONTENT_TYPES.soap11, soapaction: `"${action}"` }
        : { 'content-type': `${CONTENT_TYPES.soap12}; action="${action}"` };
    return { url: s.endpoint, init: { method: 'POST', headers, body } };
  }
  const h = s.auth.httpHeaders;
  const headers: Record<string, string> = values
    ? {
        [h.apiKey]: values.APIKey,
        [h.timestamp]: values.Timestamp,
        [h.signature]: values.Signature,
        [h.operation]: values.Operation,
      }
    : {};
  const form = op.encodeHttpRequest(params).toString();
  if (binding === 'httpGet')
    return {
      url: `${s.endpoint}/${op.name}${form ? `?${form}` : ''}`,
      init: { method: 'GET', headers },
    };
  return {
    url: `${s.endpoint}/${op.name}`,
    init: {
      method: 'POST',
      headers: { ...headers, 'content-type': CONTENT_TYPES.form },
      body: form,
    },
  };
}

// One clock per API key in this process: clients sharing a key never sign two calls with the same
// timestamp, which the server would refuse as a replay. (Separate processes sharing a key can still
// collide within one millisecond; give each process its own key.)
const clocks = new Map<string, TimestampClock>();
function clockFor(apiKey: string): TimestampClock {
  let clock = clocks.get(apiKey);
  if (!clock) clocks.set(apiKey, (clock = new TimestampClock()));
  return clock;
}

export function createTransport(o: ClientOptions): Transport {
  const base = o.baseUrl.replace(/\/+$/, '');
  const endpoint = `${base}${o.endpointPath}`;
  const ns = o.namespace ?? namespaceFor(base, o.endpointPath);
  const clock = clockFor(o.apiKey);
  const doFetch = o.fetch ?? globalThis.fetch.bind(globalThis);

  async function once<P, R>(
    op: OperationDef<P, R>,
    params: P,
    binding: Binding,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<R> {
    const { url, init } = await buildRequest(
      {
        endpoint,
        ns,
        apiKey: o.apiKey,
        secretKey: o.secretKey,
        auth: o.auth,
        timestamp: clock.next(),
      },
      op,
      params,
      binding,
    );
    let res: Response;
    let body: Uint8Array;
    try {
      res = await doFetch(url, { ...init, signal });
      body = new Uint8Array(await res.arrayBuffer()); // the body can fail or time out too
    } catch (e) {
      const reason = !signal.aborted
        ? 'failed'
        : isTimeout(signal.reason)
          ? `timed out after ${timeoutMs} ms`
          : 'was aborted';
      throw new TransportError(
        `${op.name} over ${binding} ${reason}: ${(e as Error).message}`,
        undefined,
        { cause: e },
      );
    }
    if (res.status !== 200)
      throw errorFromResponse(binding, res.status, res.headers.get('content-type') ?? '', body);
    if (binding === 'soap11' || binding === 'soap12') {
      const d = readXml(body);
      const { payload } = readSoapEnvelope(d);
      const name = payload === NO_ELEMENT ? undefined : d.name(payload);
      // A fault is small: only then is a tree built.
      const fault =
        name === 'Fault' ? soapFaultOf(d.element(payload), binding, res.status) : undefined;
      if (fault) throw fault;
      if (name !== `${op.name}Response`)
        throw new TransportError(
          `${op.name}: expected ${op.name}Response in the SOAP Body, got ${name ?? 'nothing'}`,
          res.status,
        );
      return op.decodeSoapResponse(d, payload, ns);
    }
    return op.decodeHttpResponse(body.byteLength === 0 ? undefined : readXml(body), ns);
  }

  return {
    async call(op, params, options = {}) {
      const binding = options.binding ?? o.binding ?? 'soap11';
      const timeoutMs = options.timeoutMs ?? o.timeoutMs ?? 30_000;
      const attempts = op.mutating ? 1 : Math.max(1, o.retry?.attempts ?? 1);
      for (let attempt = 1; ; attempt++) {
        const timeout = AbortSignal.timeout(timeoutMs); // per attempt, so a retry gets the full time
        const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
        try {
          return await once(op, params, binding, signal, timeoutMs);
        } catch (e) {
          if (attempt >= attempts || !isRetryable(e) || options.signal?.aborted) throw e;
          const base = o.retry?.baseDelayMs ?? 100;
          const delay =
            Math.min(o.retry?.maxDelayMs ?? 2_000, base * 2 ** (attempt - 1)) *
            (0.5 + Math.random() / 2);
          await sleep(delay, options.signal);
        }
      }
    },
  };
}

const isTimeout = (reason: unknown): boolean =>
  reason instanceof Error && reason.name === 'TimeoutError';

/** No answer at all (network error, time-out) or 503: the call may be repeated if it changes nothing. */
const isRetryable = (e: unknown): boolean =>
  (e instanceof TransportError && (e.httpStatus === undefined || e.httpStatus === 503)) ||
  (e instanceof ServiceError && e.httpStatus === 503);

/** Backoff that ends early, with the abort reason, when the caller aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => (signal?.removeEventListener('abort', abort), resolve());
    const abort = () => (
      clearTimeout(timer),
      reject(
        new TransportError('the call was aborted while waiting to retry', undefined, {
          cause: signal?.reason,
        }),
      )
    );
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
