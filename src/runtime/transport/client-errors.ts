// What the client raises: ServiceError for a fault the service answered with, TransportError when
// no usable answer arrived (network, time-out, abort, unexpected status or body).
import type { Binding } from './binding.js';
import { readFault, readSoapFault, type FaultReading } from './fault-reading.js';
import type { FaultTable } from './wire.js';
import type { XmlElement } from '../xml/index.js';

/** What a ServiceError carries: the fault's code and text, and where the answer came from. */
export interface ServiceErrorOptions<Code extends string = string> {
  /** One of the service's fault codes, from the fault detail or the HTTP body; 'Unknown' when the service sent none. */
  readonly code: Code | 'Unknown';
  readonly faultString: string;
  readonly httpStatus: number;
  readonly binding: Binding;
  /** soap:Client, soap:Server, soap12:Sender or soap12:Receiver for SOAP faults. */
  readonly soapFaultCode?: string;
  /** The answer's Retry-After, in seconds: how long the service asks callers to wait. */
  readonly retryAfterSeconds?: number;
  /**
   * The .NET exception an ASMX answer names (its HTTP GET/POST errors are a 500 text/plain
   * holding the exception's text), e.g. System.ArgumentException; `faultString` is its message.
   */
  readonly exceptionType?: string;
}

/**
 * A fault the service answered with. `Code` is the service's fault-code union: a generated
 * package exports this class typed by its own codes (`ServiceErrorClass<FaultCode>`), and
 * `e instanceof` that export gives a `code` a `switch` narrows. (On this generic class itself
 * TypeScript narrows to `ServiceError<any>`: catch with the generated package's export.)
 */
export class ServiceError<Code extends string = string> extends Error {
  readonly code: Code | 'Unknown';
  readonly faultString: string;
  readonly httpStatus: number;
  readonly binding: Binding;
  readonly soapFaultCode: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly exceptionType: string | undefined;
  constructor(options: ServiceErrorOptions<Code>) {
    const { code, faultString, httpStatus, binding, exceptionType } = options;
    super(
      `${code}${exceptionType ? ` (${exceptionType})` : ''}: ${faultString} (HTTP ${httpStatus}, ${binding})`,
    );
    this.name = 'ServiceError';
    this.code = code;
    this.faultString = faultString;
    this.httpStatus = httpStatus;
    this.binding = binding;
    this.soapFaultCode = options.soapFaultCode;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.exceptionType = exceptionType;
  }
}

/** The ServiceError class typed by one service's fault codes (what a generated package exports). */
export interface ServiceErrorClass<Code extends string> {
  new (options: ServiceErrorOptions<Code>): ServiceError<Code>;
  readonly prototype: ServiceError<Code>;
}

/**
 * Why no usable answer arrived, stable for a `switch`:
 * - `network`: the connection failed (refused, reset, a name that does not resolve);
 * - `timeout`: the call's `timeoutMs` passed;
 * - `aborted`: the caller's signal aborted the call, or the wait before a retry;
 * - `status`: an answer other than 200 that holds no fault of the service (a proxy's 502);
 * - `content-type`: a 200 answer that is not XML (a login page, a JSON gateway);
 * - `unexpected-element`: a SOAP answer whose Body holds another element than the operation's
 *   response.
 */
export type TransportErrorCode =
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'status'
  | 'content-type'
  | 'unexpected-element';

export interface TransportErrorOptions {
  readonly code: TransportErrorCode;
  /** The answer's HTTP status, when an answer came. */
  readonly httpStatus?: number;
  /** The answer's Retry-After, in seconds, when an answer came with one. */
  readonly retryAfterSeconds?: number;
  /** The error underneath (fetch's), when there is one. */
  readonly cause?: unknown;
}

/** No usable answer of the service: `code` says why, the message names the cause. */
export class TransportError extends Error {
  readonly code: TransportErrorCode;
  readonly httpStatus: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  constructor(message: string, options: TransportErrorOptions) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'TransportError';
    this.code = options.code;
    this.httpStatus = options.httpStatus;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * Retry-After in whole seconds (RFC 9110 10.2.3: delay-seconds or an HTTP-date, a date in the past
 * meaning now); undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const v = value?.trim() ?? '';
  if (/^\d+$/.test(v)) return Number(v);
  const at = /[a-z]/i.test(v) ? Date.parse(v) : NaN; // a date has a day or month name
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Why a request got no answer, naming the system error under fetch's own "fetch failed", e.g.
 * `ECONNREFUSED 127.0.0.1:8080 (fetch failed)`; for a name with several addresses, each one.
 */
export function networkCause(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const cause = e instanceof Error ? e.cause : undefined;
  return cause instanceof Error ? `${systemError(cause)} (${message})` : message;
}

function systemError(e: Error): string {
  if (e instanceof AggregateError && e.errors.length > 0)
    return e.errors.map((x) => (x instanceof Error ? systemError(x) : String(x))).join(', ');
  const { code, address, port } = e as { code?: unknown; address?: unknown; port?: unknown };
  if (typeof code !== 'string' || typeof address !== 'string') return e.message || e.name;
  const host = address.includes(':') ? `[${address}]` : address;
  return `${code} ${host}${typeof port === 'number' ? `:${port}` : ''}`;
}

const asCode = (faults: FaultTable, s: string | undefined): string =>
  faults.codes.some((c) => c.code === s) ? s! : 'Unknown';

function serviceError(
  f: FaultReading,
  binding: Binding,
  status: number,
  faults: FaultTable,
  retryAfterSeconds?: number,
): ServiceError {
  return new ServiceError({
    code: asCode(faults, f.detailCode),
    faultString: f.reason,
    httpStatus: status,
    binding,
    soapFaultCode: f.soapCode,
    retryAfterSeconds,
    exceptionType: f.exceptionType,
  });
}

/** The SOAP Fault element of a response body, if that is what it holds. */
export function soapFaultOf(
  payload: XmlElement | undefined,
  binding: Binding,
  status: number,
  faults: FaultTable,
): ServiceError | undefined {
  const f = payload && readSoapFault(payload, faults.detailElement);
  return f ? serviceError(f, binding, status, faults) : undefined;
}

/** The fault a response carries, in any of its forms (SOAP 1.1, SOAP 1.2, text), if any. */
export function parseFault(
  binding: Binding,
  status: number,
  contentType: string,
  body: Uint8Array,
  faults: FaultTable,
): ServiceError | undefined {
  const f = readFault(body, contentType, faults);
  return f ? serviceError(f, binding, status, faults) : undefined;
}

/** Turns a non-200 answer into the error it stands for, with its Retry-After if it has one. */
export function errorFromResponse(
  binding: Binding,
  status: number,
  headers: Headers,
  body: Uint8Array,
  faults: FaultTable,
): Error {
  const after = parseRetryAfter(headers.get('retry-after'), Date.now());
  const f = readFault(body, headers.get('content-type') ?? '', faults);
  if (f) return serviceError(f, binding, status, faults, after);
  const text = new TextDecoder().decode(body.subarray(0, 200));
  return new TransportError(`HTTP ${status} from the service: ${text}`, {
    code: 'status',
    httpStatus: status,
    retryAfterSeconds: after,
  });
}
