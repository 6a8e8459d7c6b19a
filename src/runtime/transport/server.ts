// The framework-neutral server engine: the service's bindings at their paths, authentication on
// every operation, faults as each binding expects them. Generated code supplies the operations
// and the wire tables (WireSpec); the engine knows no binding, content type or fault code itself.
import type { AuthScheme } from './auth.js';
import type { AnyOperationDef, Binding, OperationTable } from './binding.js';
import { createHelpResponder, type HelpOptions } from '../help/serve.js';
import { type CorsOptions, withCors } from './cors.js';
import { EngineFault, encodeHttpFault, encodeSoapFault, resolveFault } from './faults.js';
import { MemoryReplayStore, type ReplayStore } from './replay.js';
import type { Log, Pipeline } from './server-bindings.js';
import { route, routes, soap } from './server-routes.js';
import type { KeyLookup } from './verify.js';
import type { WireSpec } from './wire.js';

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
  /** For faults with the internal code only: the original error, for the operator's log (never sent). */
  readonly error?: unknown;
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
  /** Fixed {soap_namespace}; default: the namespace rule applied to {Host} per request. */
  readonly namespace?: string;
  /** Fixed public base URL for the WSDL address; default: http://{Host}. */
  readonly publicBaseUrl?: string;
  readonly now?: () => number;
  readonly onLog?: (entry: LogEntry) => void;
  /** Help pages at the endpoint (GET with Accept: text/html, ?op=, ?gaps); none when absent. */
  readonly help?: HelpOptions;
  /** Origins allowed to call the service from a browser; no CORS when absent. */
  readonly cors?: CorsOptions;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Origin-form (`/path?q`) or absolute-form request target; anything else is a 400. */
function requestUrl(target: string): URL {
  try {
    return target.startsWith('/') ? new URL(`http://host.invalid${target}`) : new URL(target);
  } catch {
    throw new EngineFault('request', 'malformed request target');
  }
}

export function createServiceHandler(options: ServiceHandlerOptions): ServiceHandler {
  const ops = new Map<string, AnyOperationDef>(
    Object.values(options.operations).map((op) => [op.name, op]),
  );
  const { wire } = options;
  const pipeline: Pipeline = {
    options,
    ops,
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
    ...routes(wire),
  };

  const handler: ServiceHandler = async (req) => {
    const started = performance.now();
    // The Host header ends up in the namespace and the WSDL: only a plain host[:port] is used.
    const host =
      req.headers.host !== undefined && HOST.test(req.headers.host)
        ? req.headers.host
        : 'localhost';
    const ns = options.namespace ?? `${wire.namespace.scheme}://${host}${wire.namespace.path}`;
    const log: Log = { operation: undefined, binding: undefined, apiKeyName: undefined };
    let res: ServiceResponse;
    let faultCode: string | undefined;
    let error: unknown;
    try {
      // A SOAP request's target is its binding's path itself: only other targets need a URL parsed.
      const soapHere = req.method === 'POST' ? pipeline.soapByPath.get(req.url) : undefined;
      res = soapHere
        ? await soap(pipeline, req, soapHere, ns, log)
        : await route(pipeline, req, requestUrl(req.url), ns, host, log);
    } catch (e) {
      const fault = resolveFault(e, wire.faults);
      faultCode = fault.def.code;
      if (faultCode === wire.faults.raisedFor.internal) error = e; // the operator's log only
      const encoded =
        log.binding?.kind === 'soap'
          ? encodeSoapFault(log.binding, fault, ns, wire.faults)
          : encodeHttpFault(fault, wire.faults);
      res = {
        status: encoded.status,
        headers: { 'content-type': encoded.contentType },
        body: encoded.body,
      };
    }
    options.onLog?.({
      time: new Date().toISOString(),
      operation: log.operation,
      binding: log.page ?? log.binding?.id,
      apiKeyName: log.apiKeyName,
      status: res.status,
      durationMs: performance.now() - started,
      faultCode,
      ...(error ? { error } : {}),
    });
    return res;
  };
  return options.cors ? withCors(handler, options.cors, options.auth, wire) : handler;
}
