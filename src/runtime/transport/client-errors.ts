// What the client raises: ServiceError for a fault the service answered with, TransportError when
// no usable answer arrived (network, time-out, abort, unexpected status or body).
import { type Binding, mediaType } from './binding.js';
import type { FaultTable } from './wire.js';
import { SOAP11_NS, SOAP12_NS, parseSoapEnvelope, type XmlElement } from '../xml/index.js';

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
  ) {
    super(`${code}: ${faultString} (HTTP ${httpStatus}, ${binding})`);
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
const child = (el: XmlElement | undefined, name: string, ns?: string) =>
  el?.children.find((c) => c.name === name && (ns === undefined || c.ns === ns));
const text = (el: XmlElement | undefined): string => (el ? el.text.trim() : '');

/** The SOAP Fault element of a response body, if that is what it holds. */
export function soapFaultOf(
  payload: XmlElement | undefined,
  binding: Binding,
  status: number,
  faults: FaultTable,
): ServiceError | undefined {
  if (!payload || payload.name !== 'Fault') return undefined;
  if (payload.ns === SOAP11_NS) {
    const code = child(child(payload, 'detail'), faults.detailElement);
    return new ServiceError(
      asCode(faults, text(code)),
      text(child(payload, 'faultstring')),
      status,
      binding,
      text(child(payload, 'faultcode')),
    );
  }
  if (payload.ns === SOAP12_NS) {
    const code = child(child(payload, 'Detail', SOAP12_NS), faults.detailElement);
    const reason = child(child(payload, 'Reason', SOAP12_NS), 'Text', SOAP12_NS);
    const value = child(child(payload, 'Code', SOAP12_NS), 'Value', SOAP12_NS);
    return new ServiceError(asCode(faults, text(code)), text(reason), status, binding, text(value));
  }
  return undefined;
}

/** The fault a response carries, in any of the three forms (SOAP 1.1, SOAP 1.2, HTTP text), if any. */
export function parseFault(
  binding: Binding,
  status: number,
  contentType: string,
  body: Uint8Array,
  faults: FaultTable,
): ServiceError | undefined {
  const { type } = mediaType(contentType);
  if (type === mediaType(faults.httpContentType).type) {
    const m = /^(\w+): ([^\n]*)/.exec(new TextDecoder().decode(body));
    return m ? new ServiceError(asCode(faults, m[1]), m[2] ?? '', status, binding) : undefined;
  }
  try {
    return soapFaultOf(parseSoapEnvelope(body).payload, binding, status, faults);
  } catch {
    return undefined; // not a SOAP envelope
  }
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
  const f = parseFault(binding, status, headers.get('content-type') ?? '', body, faults);
  if (f)
    return after === undefined
      ? f
      : new ServiceError(f.code, f.faultString, f.httpStatus, f.binding, f.soapFaultCode, after);
  const text = new TextDecoder().decode(body.subarray(0, 200));
  return new TransportError(`HTTP ${status} from the service: ${text}`, status, {
    retryAfterSeconds: after,
  });
}
