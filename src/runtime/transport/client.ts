// The client engine behind every generated client method: builds each binding's request, signs it
// with a fresh timestamp, decodes the answer or raises a typed error. Uses only fetch and Web
// Crypto, so it runs in Node and in browsers.
import { NO_ELEMENT, readSoapEnvelope, readXml } from '../xml/index.js';
import { KeyClocks, type AuthScheme } from './auth.js';
import { mediaType, type Binding, type OperationDef } from './binding.js';
import {
  ServiceError,
  TransportError,
  errorFromResponse,
  networkCause,
  soapFaultOf,
} from './client-errors.js';
import { buildRequest } from './client-request.js';
import { iteratePages, type Paging } from './paging.js';
import { type BindingDef, type WireSpec, bindingById, namespaceFor } from './wire.js';

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
  /** Endpoint, namespace rule, bindings and fault codes (generated from the spec). */
  readonly wire: WireSpec;
  /** Default: the service's first binding. */
  readonly binding?: Binding;
  /** {soap_namespace}; default: the base URL with the https scheme plus the version path. */
  readonly namespace?: string;
  readonly timeoutMs?: number;
  /**
   * Opt-in; only operations that change nothing are retried, on network errors and HTTP 503, never
   * sooner than the answer's Retry-After, and not at all when it asks for more than maxDelayMs.
   */
  readonly retry?: RetryPolicy;
  readonly fetch?: typeof fetch;
  /**
   * Called before each attempt is sent, with the raw request: the place for logging and tracing.
   * Headers added to `headers` are sent (a trace id); an error thrown here fails the call.
   */
  readonly onRequest?: (request: ClientRequest) => void | Promise<void>;
  /** Called with each answer as it arrived (raw XML, status, headers), faults included, before it is decoded. */
  readonly onResponse?: (response: ClientResponse) => void | Promise<void>;
}

/** What `onRequest` sees. The body and headers hold the signed credentials, never the secret key. */
export interface ClientRequest {
  readonly operation: string;
  readonly binding: Binding;
  /** 1, then 2… when the call is retried. */
  readonly attempt: number;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** The SOAP envelope or the form body; '' for HTTP GET. */
  readonly body: string;
}

/** What `onResponse` sees. */
export interface ClientResponse {
  readonly operation: string;
  readonly binding: Binding;
  readonly attempt: number;
  readonly url: string;
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text: the SOAP envelope, the XML document, or a fault's text. */
  readonly body: string;
  readonly durationMs: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly binding?: Binding;
}

export interface Transport {
  call<P, R, V>(op: OperationDef<P, R, V>, params: P, options?: CallOptions): Promise<V>;
  /** Every item of a paged operation, one page at a time (see `iteratePages`). */
  iterate<P, R, I>(
    op: OperationDef<P, R, readonly I[] | undefined>,
    params: P,
    paging: Paging,
    options?: CallOptions,
  ): AsyncGenerator<I, void, undefined>;
}

// One clock per API key in this process: clients sharing a key never sign two calls with the same
// timestamp, which the server would refuse as a replay. (Separate processes sharing a key can still
// collide within one millisecond; give each process its own key.) Looked up at each call, so a key
// in use stays; a process making clients for endless keys holds clocks for the last MAX_CLOCK_KEYS.
export const MAX_CLOCK_KEYS = 1_024;
const clocks = new KeyClocks(MAX_CLOCK_KEYS);
/** The API keys this process holds a timestamp clock for (at most MAX_CLOCK_KEYS). */
export const clientClockKeys = (): number => clocks.size;

export function createTransport(o: ClientOptions): Transport {
  const base = o.baseUrl.replace(/\/+$/, '');
  const endpoint = `${base}${o.wire.endpointPath}`;
  const ns = o.namespace ?? namespaceFor(base, o.wire.namespace);
  const faults = o.wire.faults;
  const doFetch = o.fetch ?? globalThis.fetch.bind(globalThis);

  async function once<P, R, V>(
    op: OperationDef<P, R, V>,
    params: P,
    binding: BindingDef,
    signal: AbortSignal,
    timeoutMs: number,
    attempt: number,
  ): Promise<V> {
    const { url, init } = await buildRequest(
      {
        endpoint,
        ns,
        apiKey: o.apiKey,
        secretKey: o.secretKey,
        auth: o.auth,
        timestamp: clocks.next(o.apiKey),
      },
      op,
      params,
      binding,
    );
    const call = { operation: op.name, binding: binding.id, attempt };
    await o.onRequest?.({
      ...call,
      method: init.method ?? 'GET',
      url,
      headers: init.headers as Record<string, string>,
      body: typeof init.body === 'string' ? init.body : '',
    });
    const started = performance.now();
    let res: Response;
    let body: Uint8Array;
    try {
      res = await doFetch(url, { ...init, signal });
      body = new Uint8Array(await res.arrayBuffer()); // the body can fail or time out too
    } catch (e) {
      const code = !signal.aborted ? 'network' : isTimeout(signal.reason) ? 'timeout' : 'aborted';
      const reason = {
        network: 'failed',
        timeout: `timed out after ${timeoutMs} ms`,
        aborted: 'was aborted',
      };
      throw new TransportError(
        `${op.name} over ${binding.id} ${reason[code]}: ${networkCause(e)}`,
        {
          code,
          cause: e,
        },
      );
    }
    await o.onResponse?.({
      ...call,
      url,
      status: res.status,
      headers: headersOf(res.headers),
      body: new TextDecoder().decode(body),
      durationMs: performance.now() - started,
    });
    const type = res.headers.get('content-type') ?? '';
    if (res.status !== 200)
      throw errorFromResponse(binding.id, res.status, res.headers, body, faults);
    const media = mediaType(type).type;
    if (!isXml(media))
      throw new TransportError(
        `${op.name} over ${binding.id}: expected an XML answer, got ${media}`,
        { code: 'content-type', httpStatus: res.status },
      );
    if (binding.kind === 'soap') {
      const d = readXml(body);
      const { payload } = readSoapEnvelope(d);
      const name = payload === NO_ELEMENT ? undefined : d.name(payload);
      // A fault is small: only then is a tree built.
      const fault =
        name === 'Fault'
          ? soapFaultOf(d.element(payload), binding.id, res.status, faults)
          : undefined;
      if (fault) throw fault;
      if (name !== op.responseElement)
        throw new TransportError(
          `${op.name}: expected ${op.responseElement} in the SOAP Body, got ${name ?? 'nothing'}`,
          { code: 'unexpected-element', httpStatus: res.status },
        );
      return op.decodeSoapResponse(d, payload, ns);
    }
    return op.decodeHttpResponse(body.byteLength === 0 ? undefined : readXml(body), ns);
  }

  const transport: Transport = {
    async call(op, params, options = {}) {
      const id = options.binding ?? o.binding;
      const binding = id === undefined ? o.wire.bindings[0]! : bindingById(o.wire, id);
      const timeoutMs = options.timeoutMs ?? o.timeoutMs ?? 30_000;
      const attempts = op.mutating ? 1 : Math.max(1, o.retry?.attempts ?? 1);
      for (let attempt = 1; ; attempt++) {
        const timeout = AbortSignal.timeout(timeoutMs); // per attempt, so a retry gets the full time
        const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
        try {
          return await once(op, params, binding, signal, timeoutMs, attempt);
        } catch (e) {
          if (attempt >= attempts || !isRetryable(e) || options.signal?.aborted) throw e;
          const base = o.retry?.baseDelayMs ?? 100;
          const max = o.retry?.maxDelayMs ?? 2_000;
          // The service's Retry-After is a floor; longer than the policy waits, the caller decides.
          const asked = 1_000 * (retryAfterOf(e) ?? 0);
          if (asked > max) throw e;
          const backoff = Math.min(max, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
          await sleep(Math.max(asked, backoff), options.signal);
        }
      }
    },
    iterate: (op, params, paging, options) =>
      iteratePages((p) => transport.call(op, p, options), params, paging),
  };
  return transport;
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

const isTimeout = (reason: unknown): boolean =>
  reason instanceof Error && reason.name === 'TimeoutError';

/** No answer at all (network error, time-out) or 503: the call may be repeated if it changes nothing. */
const isRetryable = (e: unknown): boolean =>
  (e instanceof TransportError &&
    (e.code === 'network' || e.code === 'timeout' || e.httpStatus === 503)) ||
  (e instanceof ServiceError && e.httpStatus === 503);

const retryAfterOf = (e: unknown): number | undefined =>
  e instanceof TransportError || e instanceof ServiceError ? e.retryAfterSeconds : undefined;

/** Backoff that ends early, with the abort reason, when the caller aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => (signal?.removeEventListener('abort', abort), resolve());
    const abort = () => (
      clearTimeout(timer),
      reject(
        new TransportError('the call was aborted while waiting to retry', {
          code: 'aborted',
          cause: signal?.reason,
        }),
      )
    );
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Whether a 200 answer of this media type may be read as XML: any XML type (servers differ on
 * which; application/soap+xml is one of the +xml ones), or none given (the body decides). A login
 * page or a JSON gateway in between is refused by name.
 */
const isXml = (media: string): boolean =>
  media === '' || media === 'text/xml' || media === 'application/xml' || media.endsWith('+xml');
