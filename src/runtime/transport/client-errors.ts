// What the client raises: ServiceError for a fault the service answered with, TransportError when
// no usable answer arrived (network, time-out, abort, unexpected status or body).
import type { Binding } from './binding.js';
import { FAULT_CODES, type FaultCode } from './faults.js';
import { SOAP11_NS, SOAP12_NS, parseXml, readSoapEnvelope, type XmlElement } from '../xml/index.js';

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

const asCode = (s: string | undefined): FaultCode | 'Unknown' => ((FAULT_CODES as readonly string[]).includes(s ?? '') ? (s as FaultCode) : 'Unknown');
const child = (el: XmlElement | undefined, name: string, ns?: string) => el?.children.find((c) => c.name === name && (ns === undefined || c.ns === ns));
const text = (el: XmlElement | undefined): string => (el ? el.text.trim() : '');

/** The SOAP Fault element of a response body, if that is what it holds. */
export function soapFaultOf(payload: XmlElement | undefined, binding: Binding, status: number): ServiceError | undefined {
  if (!payload || payload.name !== 'Fault') return undefined;
  if (payload.ns === SOAP11_NS) {
    const code = child(child(payload, 'detail'), 'ErrorCode');
    return new ServiceError(asCode(text(code)), text(child(payload, 'faultstring')), status, binding, text(child(payload, 'faultcode')));
  }
  if (payload.ns === SOAP12_NS) {
    const code = child(child(payload, 'Detail', SOAP12_NS), 'ErrorCode');
    const reason = child(child(payload, 'Reason', SOAP12_NS), 'Text', SOAP12_NS);
    const value = child(child(payload, 'Code', SOAP12_NS), 'Value', SOAP12_NS);
    return new ServiceError(asCode(text(code)), text(reason), status, binding, text(value));
  }
  return undefined;
}

/** Turns a non-200 answer into the error it stands for. */
export function errorFromResponse(binding: Binding, status: number, contentType: string, body: Uint8Array): Error {
  const bodyText = new TextDecoder().decode(body);
  if (/xml/i.test(contentType)) {
    try {
      const fault = soapFaultOf(readSoapEnvelope(parseXml(body)).payload, binding, status);
      if (fault) return fault;
    } catch {
      // not a SOAP fault: fall through
    }
  }
  const m = /^(\w+): ([^\n]*)/.exec(bodyText);
  if (m && /text\/plain/i.test(contentType)) return new ServiceError(asCode(m[1]), m[2] ?? '', status, binding);
  return new TransportError(`HTTP ${status} from the service: ${bodyText.slice(0, 200)}`, status);
}
