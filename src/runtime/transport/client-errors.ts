// What the client raises: ServiceError for a fault the service answered with, TransportError when
// no usable answer arrived (network, time-out, abort, unexpected status or body).
import type { Binding } from './binding.js';
import { readFault, readSoapFault, type FaultReading } from './fault-reading.js';
import type { FaultTable } from './wire.js';
import type { XmlElement } from '../xml/index.js';

export class ServiceError extends Error {
  constructor(
    /** One of the service's fault codes, from the fault detail or the HTTP body; 'Unknown' when the service sent none. */
    readonly code: string,
    readonly faultString: string,
    readonly httpStatus: number,
    readonly binding: Binding,
    /** soap:Client, soap:Server, soap12:Sender or soap12:Receiver for SOAP faults. */
    readonly soapFaultCode?: string,
    /** The answer's Retry-After, in seconds: how long the service asks callers to wait. */
    readonly retryAfterSeconds?: number,
    /**
     * The .NET exception an ASMX answer names (its HTTP GET/POST errors are a 500 text/plain
     * holding the exception's text), e.g. System.ArgumentException; `faultString` is its message.
     */
    readonly exceptionType?: string,
  ) {
    super(
      `${code}${exceptionType ? ` (${exceptionType})` : ''}: ${faultString} (HTTP ${httpStatus}, ${binding})`,
    );
    this.name = 'ServiceError';
  }
}

export class TransportError extends Error {
  /** The answer's Retry-After, in seconds, when an answer came with one. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    message: string,
    readonly httpStatus?: number,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'TransportError';
    this.retryAfterSeconds = options?.retryAfterSeconds;
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
  return new ServiceError(
    asCode(faults, f.detailCode),
    f.reason,
    status,
    binding,
    f.soapCode,
    retryAfterSeconds,
    f.exceptionType,
  );
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
  return new TransportError(`HTTP ${status} from the service: ${text}`, status, {
    retryAfterSeconds: after,
  });
}
