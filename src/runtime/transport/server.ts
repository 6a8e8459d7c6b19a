// The framework-neutral server engine: one address, four bindings, authentication on every
// operation, faults as each binding expects them. Generated code supplies the operations.
import type { AuthScheme } from './auth.js';
import {
  type AnyOperationDef,
  type Binding,
  CONTENT_TYPES,
  type OperationTable,
  isPlainHost,
  mediaType,
  namespaceFor,
  namespacePath,
} from './binding.js';
import { createHelpResponder, type HelpOptions } from '../help/serve.js';
import { type CorsOptions, withCors } from './cors.js';
import { INTERNAL_MESSAGE, ServiceFault, encodeHttpFault, encodeSoapFault } from './faults.js';
import { MemoryReplayStore, type ReplayStore } from './replay.js';
import { handleHttp, handleSoap, type Pipeline } from './server-bindings.js';
import type { KeyLookup } from './verify.js';

export interface ServiceRequest {
  readonly method: string;
  /** Path and query, e.g. `/API/1_0/SOAP/ServiceAPI.asmx/GetBooking?bookingId=1`. */
  readonly url: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Uint8Array;
  /** Lower-case names of header fields the request carried more than once (refused where read). */
  readonly duplicateHeaders?: readonly string[];
}

export interface ServiceResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Results are UTF-8 bytes; faults and the WSDL are strings. */
  readonly body: string | Uint8Array;
}

export type ServiceHandler = (req: ServiceRequest) => Promise<ServiceResponse>;

export interface RequestContext {
  readonly apiKey: string;
  readonly apiKeyName: string | undefined;
  readonly operation: string;
  readonly binding: Binding;
}

export interface LogEntry {
  readonly time: string;
  readonly operation: string | undefined;
  readonly binding: Binding | 'wsdl' | 'help' | undefined;
  readonly status: number;
  readonly durationMs: number;
  readonly apiKeyName: string | undefined;
  readonly faultCode: string | undefined;
  /** For Internal faults only: what was thrown, for the operator's log (never sent). */
  readonly error?: LoggedError;
}

/** A thrown value as plain data, so that `JSON.stringify(entry)` keeps it. */
export interface LoggedError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

export interface ServiceHandlerOptions {
  readonly operations: OperationTable;
  readonly handlers: object;
  readonly auth: AuthScheme;
  readonly endpointPath: string;
  readonly lookupKey: KeyLookup;
  readonly wsdl: (address: string, ns: string) => string;
  /** Accepted distance of Timestamp from the server clock; default 300. */
  readonly clockSkewSeconds?: number;
  /** Default: in memory. `false` turns replay protection off. */
  readonly replayStore?: ReplayStore | false;
  readonly maxBodyBytes?: number;
  /**
   * Fixed {soap_namespace}. Default: derived from `publicBaseUrl` when set; otherwise
   * https://{Host}{namespace path} per request, and then a SOAP request whose namespace differs
   * from that only by its host (a client generated from `http://127.0.0.1:8080?wsdl` calling
   * `localhost:8080`) is answered in its own namespace.
   */
  readonly namespace?: string;
  /**
   * The service's public base URL, e.g. `https://events.example.com`: fixes the WSDL's addresses
   * and (unless `namespace` is set) the namespace, whatever the Host header says. Default:
   * http://{Host}.
   */
  readonly publicBaseUrl?: string;
  readonly now?: () => number;
  /**
   * Some operations may lack a handler: they answer the NotImplemented fault and are listed
   * through `onDiagnostic` at creation. Without it a missing handler is an error at creation.
   */
  readonly partial?: boolean;
  /** One entry per request (never the secret or the signature). */
  readonly onLog?: (entry: LogEntry) => void;
  /**
   * Messages for the operator: an internal error with its name, message and stack (the client
   * only ever gets "Internal error"), and the operations not implemented. Default: console.error
   * (stderr in Node).
   */
  readonly onDiagnostic?: (message: string) => void;
  /** Help pages at the endpoint (GET with Accept: text/html, ?op=, ?gaps); none when absent. */
  readonly help?: HelpOptions;
  /** Origins allowed to call the service from a browser; no CORS when absent. */
  readonly cors?: CorsOptions;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Origin-form (`/path?q`) or absolute-form request target; anything else is a 400. */
function requestUrl(target: string): URL {
  try {
    return target.startsWith('/') ? new URL(`http://host.invalid${target}`) : new URL(target);
  } catch {
    throw new ServiceFault('InvalidRequest', 'malformed request target');
  }
}

/** What was thrown, as data: `name: message` and the stack when it is an Error. */
function loggedError(e: unknown): LoggedError {
  if (!(e instanceof Error)) return { name: typeof e, message: String(e) };
  return { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
}

/** The operator's line for an internal error: where, then the stack (or name and message). */
function internalErrorMessage(entry: LogEntry, error: LoggedError): string {
  const head = `${error.name}: ${error.message}`;
  const detail = error.stack?.startsWith(head) ? error.stack : `${head}\n${error.stack ?? ''}`;
  return `internal error in ${entry.operation ?? 'a request'} (${entry.binding ?? 'no binding'}), answered "${INTERNAL_MESSAGE}": ${detail.trimEnd()}`;
}

/** Operations of `options.operations` with no handler method; refused unless `partial`. */
function unimplemented(options: ServiceHandlerOptions, diagnostic: (m: string) => void): void {
  const all = Object.values(options.operations);
  const handlers = options.handlers as Record<string, unknown>;
  const missing = all
    .filter((op) => typeof handlers[op.method] !== 'function')
    .map((op) => op.name);
  if (missing.length === 0) return;
  if (!options.partial)
    throw new TypeError(
      `no handler for ${missing.join(', ')}: implement them, or pass { partial: true } to answer NotImplemented for them`,
    );
  diagnostic(
    `${missing.length} of ${all.length} operations are not implemented and answer NotImplemented: ${missing.join(', ')}`,
  );
}

export function createServiceHandler(options: ServiceHandlerOptions): ServiceHandler {
  const diagnostic = options.onDiagnostic ?? ((m: string) => console.error(m));
  unimplemented(options, diagnostic);
  const ops = new Map<string, AnyOperationDef>(
    Object.values(options.operations).map((op) => [op.name, op]),
  );
  const nsPath = namespacePath(options.endpointPath);
  const fixedNs =
    options.namespace ??
    (options.publicBaseUrl === undefined
      ? undefined
      : namespaceFor(options.publicBaseUrl, options.endpointPath));
  const pipeline: Pipeline = {
    options,
    ops,
    namespacePath: nsPath,
    namespaceFollowsHost: fixedNs === undefined,
    verify: {
      lookupKey: options.lookupKey,
      clockSkewSeconds: options.clockSkewSeconds ?? 300,
      replayStore:
        options.replayStore === false
          ? undefined
          : (options.replayStore ?? new MemoryReplayStore()),
      now: options.now ?? Date.now,
    },
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    help:
      options.help &&
      createHelpResponder(options.help, {
        auth: options.auth,
        endpointPath: options.endpointPath,
        operations: ops,
      }),
  };

  const handler: ServiceHandler = async (req) => {
    const started = performance.now();
    // The Host header ends up in the namespace and the WSDL: only a plain host[:port] is used.
    const host =
      req.headers.host !== undefined && isPlainHost(req.headers.host)
        ? req.headers.host
        : 'localhost';
    const ns = fixedNs ?? `https://${host}${nsPath}`;
    const log: Log = {};
    let res: ServiceResponse;
    let faultCode: string | undefined;
    let error: LoggedError | undefined;
    try {
      // A SOAP request's target is the endpoint itself: only other targets need a URL parsed.
      res =
        req.url === options.endpointPath && req.method === 'POST'
          ? await soap(pipeline, req, ns, log)
          : await route(pipeline, req, requestUrl(req.url), ns, host, log);
    } catch (e) {
      const fault = toFault(e);
      faultCode = fault.code;
      if (fault.code === 'Internal') error = loggedError(e); // for the operator's log only
      const encoded =
        log.binding === 'soap11' || log.binding === 'soap12'
          ? encodeSoapFault(log.binding === 'soap11' ? '1.1' : '1.2', fault, log.ns ?? ns)
          : encodeHttpFault(fault);
      const status =
        log.binding === 'soap11' || log.binding === 'soap12'
          ? fault.httpStatus === 413 || fault.httpStatus === 415
            ? fault.httpStatus
            : encoded.status
          : encoded.status;
      res = { status, headers: { 'content-type': encoded.contentType }, body: encoded.body };
    }
    const entry: LogEntry = {
      time: new Date().toISOString(),
      operation: log.operation,
      binding: log.binding,
      apiKeyName: log.apiKeyName,
      status: res.status,
      durationMs: performance.now() - started,
      faultCode,
      ...(error ? { error } : {}),
    };
    options.onLog?.(entry);
    if (error) diagnostic(internalErrorMessage(entry, error));
    return res;
  };
  return options.cors
    ? withCors(handler, options.cors, options.auth, options.endpointPath)
    : handler;
}

type Log = {
  operation?: string;
  binding?: LogEntry['binding'];
  apiKeyName?: string;
  /** The namespace a SOAP request was answered in, when not the Host's (see `namespace`). */
  ns?: string;
};

async function route(
  p: Pipeline,
  req: ServiceRequest,
  url: URL,
  ns: string,
  host: string,
  log: Log,
): Promise<ServiceResponse> {
  const endpoint = p.options.endpointPath;
  if (req.body.byteLength > p.maxBodyBytes)
    throw new ServiceFault(
      'InvalidRequest',
      `request body larger than ${p.maxBodyBytes} bytes`,
      413,
    );
  if (url.pathname === endpoint) {
    if (
      req.method === 'GET' &&
      [...url.searchParams.keys()].some((k) => k.toLowerCase() === 'wsdl')
    ) {
      log.binding = 'wsdl';
      return {
        status: 200,
        headers: { 'content-type': CONTENT_TYPES.xml },
        body: p.options.wsdl(`${baseUrl(p, host)}${endpoint}`, ns),
      };
    }
    const help =
      req.method === 'GET'
        ? await p.help?.(url, req.headers.accept, {
            baseUrl: baseUrl(p, host),
            host: new URL(baseUrl(p, host)).host,
            namespace: ns,
          })
        : undefined;
    if (help) {
      log.binding = 'help';
      return help;
    }
    if (req.method !== 'POST')
      throw new ServiceFault(
        'InvalidRequest',
        `use POST for SOAP, GET ${endpoint}?wsdl for the WSDL, or ${endpoint}/<Operation>`,
        405,
      );
    return soap(p, req, ns, log);
  }
  if (url.pathname.startsWith(`${endpoint}/`)) {
    log.binding = req.method === 'POST' ? 'httpPost' : 'httpGet';
    const name = url.pathname.slice(endpoint.length + 1); // operation names are plain ASCII: no decoding
    const op = p.ops.get(name);
    if (!op) throw new ServiceFault('InvalidRequest', `unknown operation "${name}"`, 404);
    log.operation = op.name;
    if (req.method !== 'GET' && req.method !== 'POST')
      throw new ServiceFault('InvalidRequest', 'use GET or POST', 405);
    return handleHttp(p, req, op, log.binding, url, ns, log);
  }
  throw new ServiceFault(
    'InvalidRequest',
    `no service at ${url.pathname}; the endpoint is ${endpoint}`,
    404,
  );
}

/** {base_url} as clients reach this server: the configured public one, else http://{Host}. */
const baseUrl = (p: Pipeline, host: string): string =>
  p.options.publicBaseUrl?.replace(/\/+$/, '') ?? `http://${host}`;

/** A POST to the endpoint: SOAP 1.1 or 1.2 by its content type. */
function soap(p: Pipeline, req: ServiceRequest, ns: string, log: Log): Promise<ServiceResponse> {
  const { type, utf8 } = mediaType(req.headers['content-type']);
  log.binding = type === 'application/soap+xml' ? 'soap12' : 'soap11';
  if (type !== 'text/xml' && type !== 'application/soap+xml') {
    throw new ServiceFault(
      'InvalidRequest',
      `content type must be text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2), got "${type || 'none'}"`,
      415,
    );
  }
  if (!utf8) throw new ServiceFault('InvalidRequest', 'the only accepted charset is utf-8', 415);
  return handleSoap(p, req, log.binding, ns, log);
}

/**
 * Any error as the fault that goes out. Request parse and decode errors were turned into faults where
 * they arise, so anything else (a handler's own error, an XmlEncodeError of its result) is Internal.
 */
function toFault(e: unknown): ServiceFault {
  if (e instanceof ServiceFault) return e;
  return new ServiceFault('Internal', INTERNAL_MESSAGE);
}
