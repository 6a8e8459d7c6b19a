// What the client raises: ServiceError for a fault the service answered with, TransportError when
// no usable answer arrived (network, time-out, abort, unexpected status or body).
import { type Binding, mediaType } from './binding.js';
import { FAULT_CODES, type FaultCode } from './faults.js';
import { SOAP11_NS, SOAP12_NS, parseSoapEnvelope, type XmlElement } from '../xml/index.js';

export class ServiceError extends Error {
  constructor(
    /** The machine-readable code from the fault detail, or 'Unknown' when the service sent none. */
    readonly code: FaultCode | 'Unknown',
    readonly faultString: string,
    readonly httpStatus: number,
    readonly binding: Binding,
    /** soap:Client, soap:Server, soap12:Sender or soap12:Receiver for SOAP faults. */
    readonly soapFaultCode?: string,
  ) {
    super(`${code}: ${faultString} (HTTP ${httpStatus}, ${binding})`);
    this.name = 'ServiceError';
  }
}

export class TransportError extends Error {
  constructor(
    message: string,
    readonly httpStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
  }
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

const asCode = (s: string | undefined): FaultCode | 'Unknown' =>
  (FAULT_CODES as readonly string[]).includes(s ?? '') ? (s as FaultCode) : 'Unknown';
const child = (el: XmlElement | undefined, name: string, ns?: string) =>
  el?.children.find((c) => c.name === name && (ns === undefined || c.ns === ns));
const text = (el: XmlElement | undefined): string => (el ? el.text.trim() : '');

/** The SOAP Fault element of a response body, if that is what it holds. */
export function soapFaultOf(
  payload: XmlElement | undefined,
  binding: Binding,
  status: number,
): ServiceError | undefined {
  if (!payload || payload.name !== 'Fault') return undefined;
  if (payload.ns === SOAP11_NS) {
    const code = child(child(payload, 'detail'), 'ErrorCode');
    return new ServiceError(
      asCode(text(code)),
      text(child(payload, 'faultstring')),
      status,
      binding,
      text(child(payload, 'faultcode')),
    );
  }
  if (payload.ns === SOAP12_NS) {
    const code = child(child(payload, 'Detail', SOAP12_NS), 'ErrorCode');
    const reason = child(child(payload, 'Reason', SOAP12_NS), 'Text', SOAP12_NS);
    const value = child(child(payload, 'Code', SOAP12_NS), 'Value', SOAP12_NS);
    return new ServiceError(asCode(text(code)), text(reason), status, binding, text(value));
  }
  return undefined;
}

/** The fault a response carries, in any of the three forms (SOAP 1.1, SOAP 1.2, HTTP text), if any. */
export function parseFault(
  binding: Binding,
  status: number,
  contentType: string,
  body: Uint8Array,
): ServiceError | undefined {
  const { type } = mediaType(contentType);
  if (type === 'text/xml' || type === 'application/soap+xml') {
    try {
      return soapFaultOf(parseSoapEnvelope(body).payload, binding, status);
    } catch {
      return undefined; // not a SOAP envelope
    }
  }
  if (type !== 'text/plain') return undefined;
  const m = /^(\w+): ([^\n]*)/.exec(new TextDecoder().decode(body));
  return m ? new ServiceError(asCode(m[1]), m[2] ?? '', status, binding) : undefined;
}

/** Turns a non-200 answer into the error it stands for. */
export function errorFromResponse(
  binding: Binding,
  status: number,
  contentType: string,
  body: Uint8Array,
): Error {
  const fault = parseFault(binding, status, contentType, body);
  if (fault) return fault;
  const text = new TextDecoder().decode(body.subarray(0, 200));
  return new TransportError(`HTTP ${status} from the service: ${text}`, status);
}
