// The framework-neutral server engine: the service's bindings at their paths, authentication on
// every operation, faults as each binding expects them. Generated code supplies the operations
// and the wire tables (WireSpec); the engine knows no binding, content type or fault code itself.
import type { AuthScheme } from './auth.js';
import type { AnyOperationDef, Binding, OperationTable } from './binding.js';
import { createHelpResponder, type HelpOptions } from '../help/serve.js';
import { type CorsOptions, withCors } from './cors.js';
import {
  EngineFault,
  ServiceFault,
  encodeHttpFault,
  encodeSoapFault,
  resolveFault,
  withRequestId,
} from './faults.js';
import { isoNow } from './iso-now.js';
import { BoundedCache } from './memo.js';
import { MemoryReplayStore, type ReplayStore } from './replay.js';
import type { Log, Pipeline } from './server-bindings.js';
import { route, routes, soap } from './server-routes.js';
import type { KeyLookup } from './verify.js';
import { type WireSpec, isPlainHost, namespaceFor } from './wire.js';

export interface ServiceRequest {
  readonly method: string;
  /** Path and query, e.g. `/API/1_0/SOAP/ServiceAPI.asmx/GetBooking?bookingId=1`. */
  readonly url: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Uint8Array;
  /** Set by a transport that stopped reading a body longer than this many bytes (`body` is then empty). */
  readonly bodyLimitExceeded?: number;
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
  /** The binding's id, or 'wsdl' or 'help' for those pages. */
  readonly binding: Binding | undefined;
  readonly status: number;
  readonly durationMs: number;
  readonly apiKeyName: string | undefined;
  readonly faultCode: string | undefined;
  /** The request's id, when the service gives requests one (`requestId`). */
  readonly requestId?: string;
  /**
   * For the operator's log, never sent: what was thrown for a fault with the internal code, or
   * the cause under another fault (the driver's error under Unavailable).
   */
  readonly error?: LoggedError;
}

/** A thrown value as plain data, so that `JSON.stringify(entry)` keeps it. */
export interface LoggedError {
  readonly name: string;
  readonly message: string;
  /** The error's own code, when it has one (a driver's SQLITE_BUSY, ECONNREFUSED, 57P01...). */
  readonly code?: string;
  readonly stack?: string;
}

export interface ServiceHandlerOptions {
  readonly operations: OperationTable;
  readonly handlers: object;
  readonly auth: AuthScheme;
  /** Endpoint, namespace rule, bindings and fault codes (generated from the spec). */
  readonly wire: WireSpec;
  readonly lookupKey: KeyLookup;
  readonly wsdl: (address: string, ns: string) => string;
  /** Accepted distance of Timestamp from the server clock. */
  readonly clockSkewSeconds: number;
  /** Default: in memory. `false` turns replay protection off. */
  readonly replayStore?: ReplayStore | false;
  readonly maxBodyBytes?: number;
  /**
   * Fixed {soap_namespace}. Default: the namespace rule applied to `publicBaseUrl` when set;
   * otherwise to {Host} per request, and then a SOAP request whose namespace differs
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
   * Some operations may lack a handler: they answer the code the fault table raises for
   * notImplemented and are listed through `onDiagnostic` at creation. Without it a missing handler
   * is an error at creation, and so is `partial` itself when the table names no such code.
   */
  readonly partial?: boolean;
  /**
   * The request's id (e.g. its validated X-Request-Id): put on its log entry and at the end of an
   * internal fault's text, so that the caller can quote it to whoever reads the log.
   */
  readonly requestId?: (req: ServiceRequest) => string | undefined;
  /**
   * One entry per request (never the secret or the signature), with the request it is about (for
   * fields of the service's own, such as a trace id from its headers).
   */
  readonly onLog?: (entry: LogEntry, req: ServiceRequest) => void;
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
    throw new EngineFault('request', 'malformed request target');
  }
}

/** What was thrown, as data: `name: message` and the stack when it is an Error. */
function loggedError(e: unknown): LoggedError {
  if (!(e instanceof Error)) return { name: typeof e, message: String(e) };
  const code = (e as { code?: unknown }).code;
  return {
    name: e.name,
    message: e.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(e.stack ? { stack: e.stack } : {}),
  };
}

/** The operator's line for an internal error: where, what the client got, then the stack. */
function internalErrorMessage(entry: LogEntry, error: LoggedError, answered: string): string {
  const head = `${error.name}: ${error.message}`;
  const detail = error.stack?.startsWith(head) ? error.stack : `${head}\n${error.stack ?? ''}`;
  return `internal error in ${entry.operation ?? 'a request'} (${entry.binding ?? 'no binding'}), answered "${answered}": ${detail.trimEnd()}`;
}

/**
 * Operations of `options.operations` with no handler method: refused unless `partial`, else
 * listed; they answer the fault the table raises for an operation not implemented. A table naming
 * no such fault (its role is optional) refuses `partial` itself, whatever the handlers.
 */
function unimplemented(options: ServiceHandlerOptions, diagnostic: (m: string) => void): void {
  const code = options.wire.faults.raisedFor.notImplemented;
  if (options.partial && code === undefined)
    throw new TypeError(
      "{ partial: true } needs the fault code answered for an operation not implemented, and this service's fault table names none " +
        '(the spec has no code with raisedFor: notImplemented in spec/errors.yaml): implement every operation, or add that code to the spec',
    );
  const all = Object.values(options.operations);
  const handlers = options.handlers as Record<string, unknown>;
  const missing = all
    .filter((op) => typeof handlers[op.method] !== 'function')
    .map((op) => op.name);
  if (missing.length === 0) return;
  if (!options.partial)
    throw new TypeError(
      `no handler for ${missing.join(', ')}: implement them` +
        (code === undefined ? '' : `, or pass { partial: true } to answer ${code} for them`),
    );
  diagnostic(
    `${missing.length} of ${all.length} operations are not implemented and answer ${code}: ${missing.join(', ')}`,
  );
}

export function createServiceHandler(options: ServiceHandlerOptions): ServiceHandler {
  const diagnostic = options.onDiagnostic ?? ((m: string) => console.error(m));
  unimplemented(options, diagnostic);
  const ops = new Map<string, AnyOperationDef>(
    Object.values(options.operations).map((op) => [op.name, op]),
  );
  const { wire } = options;
  const fixedNs =
    options.namespace ??
    (options.publicBaseUrl === undefined
      ? undefined
      : namespaceFor(options.publicBaseUrl, wire.namespace));
  const pipeline: Pipeline = {
    options,
    ops,
    namespaceFollowsHost: fixedNs === undefined,
    verify: {
      lookupKey: options.lookupKey,
      clockSkewSeconds: options.clockSkewSeconds,
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
        endpointPath: wire.endpointPath,
        wire,
        operations: ops,
      }),
    soapActions: new BoundedCache(),
    ...routes(wire),
  };

  // The Host header ends up in the namespace and the WSDL: only a plain host[:port] is used.
  const hosts = new BoundedCache<{ host: string; ns: string }>();
  const hostOf = (sent: string) =>
    hosts.get(sent, () => {
      const host = isPlainHost(sent) ? sent : 'localhost';
      return { host, ns: fixedNs ?? namespaceFor(host, wire.namespace) };
    });
  const handler: ServiceHandler = async (req) => {
    const started = performance.now();
    const { host, ns } = hostOf(req.headers.host ?? '');
    const log: Log = { operation: undefined, binding: undefined, apiKeyName: undefined };
    let res: ServiceResponse;
    let faultCode: string | undefined;
    let error: { logged: LoggedError; answered: string } | undefined;
    let cause: LoggedError | undefined; // of a fault that is not internal: the log's, not the client's
    const requestId = options.requestId?.(req);
    try {
      // A SOAP request's target is its binding's path itself: only other targets need a URL parsed.
      const soapHere = req.method === 'POST' ? pipeline.soapByPath.get(req.url) : undefined;
      res = soapHere
        ? await soap(pipeline, req, soapHere, ns, log)
        : await route(pipeline, req, requestUrl(req.url), ns, host, log);
    } catch (e) {
      const fault = withRequestId(resolveFault(e, wire.faults), wire.faults, requestId);
      faultCode = fault.def.code;
      // What was thrown goes to the operator only; the client gets the code's fixed message.
      if (faultCode === wire.faults.raisedFor.internal)
        error = { logged: loggedError(e), answered: fault.message };
      else if (e instanceof ServiceFault && e.cause !== undefined) cause = loggedError(e.cause);
      const encoded =
        log.binding?.kind === 'soap'
          ? encodeSoapFault(log.binding, fault, log.ns ?? ns, wire.faults)
          : encodeHttpFault(fault, wire.faults);
      res = { status: encoded.status, headers: encoded.headers, body: encoded.body };
    }
    if (!options.onLog && !error) return res;
    const entry: LogEntry = {
      time: isoNow(),
      operation: log.operation,
      binding: log.page ?? log.binding?.id,
      apiKeyName: log.apiKeyName,
      status: res.status,
      durationMs: performance.now() - started,
      faultCode,
      ...(requestId === undefined ? {} : { requestId }),
      ...(error ? { error: error.logged } : cause ? { error: cause } : {}),
    };
    options.onLog?.(entry, req);
    if (error) diagnostic(internalErrorMessage(entry, error.logged, error.answered));
    return res;
  };
  return options.cors ? withCors(handler, options.cors, options.auth, wire) : handler;
}
