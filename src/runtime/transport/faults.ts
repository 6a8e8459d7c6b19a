// The closed set of fault codes (spec/errors.yaml) and how each binding carries a fault.
import { escapeAttr, escapeText, writeSoapEnvelope, type SoapVersion } from '../xml/index.js';

export const FAULT_CODES = [
  'AuthenticationFailed',
  'InvalidRequest',
  'InvalidParameter',
  'NotFound',
  'Conflict',
  'NotImplemented',
  'Internal',
] as const;
export type FaultCode = (typeof FAULT_CODES)[number];

const DEFAULT_STATUS: Record<FaultCode, number> = {
  AuthenticationFailed: 403,
  InvalidRequest: 400,
  InvalidParameter: 400,
  NotFound: 404,
  Conflict: 409,
  NotImplemented: 501,
  Internal: 500,
};

/** Thrown by handlers (and the engine) to answer with a fault. */
export class ServiceFault extends Error {
  /** HTTP status for the HTTP GET/POST bindings (401, 404, 405, 413, 415 refine the default). */
  readonly httpStatus: number;
  constructor(
    readonly code: FaultCode,
    message: string,
    httpStatus?: number,
  ) {
    super(message);
    this.name = 'ServiceFault';
    this.httpStatus = httpStatus ?? DEFAULT_STATUS[code];
  }
}

/** soap:Client / soap12:Sender: the request is at fault; otherwise the server (soap:Server / soap12:Receiver). */
export const isSenderFault = (code: FaultCode): boolean =>
  code !== 'Internal' && code !== 'NotImplemented';

export interface EncodedFault {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const detail = (code: FaultCode, ns: string, detailElement: string) =>
  `<${detailElement} xmlns="${escapeAttr(ns)}">${code}</${detailElement}>`;

export const INTERNAL_MESSAGE = 'Internal error';

/** The text that may leave the server: an Internal fault never carries its original message. */
export const publicMessage = (fault: ServiceFault): string =>
  fault.code === 'Internal' ? INTERNAL_MESSAGE : fault.message;

export function encodeSoapFault(
  version: SoapVersion,
  fault: ServiceFault,
  ns: string,
  detailElement = 'ErrorCode',
): EncodedFault {
  const text = escapeText(publicMessage(fault));
  const sender = isSenderFault(fault.code);
  if (version === '1.1') {
    const body = `<soap:Fault><faultcode>soap:${sender ? 'Client' : 'Server'}</faultcode><faultstring>${text}</faultstring><detail>${detail(fault.code, ns, detailElement)}</detail></soap:Fault>`;
    return {
      status: 500,
      contentType: 'text/xml; charset=utf-8',
      body: writeSoapEnvelope('1.1', undefined, body),
    };
  }
  const body = `<soap12:Fault><soap12:Code><soap12:Value>soap12:${sender ? 'Sender' : 'Receiver'}</soap12:Value></soap12:Code><soap12:Reason><soap12:Text xml:lang="en">${text}</soap12:Text></soap12:Reason><soap12:Detail>${detail(fault.code, ns, detailElement)}</soap12:Detail></soap12:Fault>`;
  return {
    status: sender ? 400 : 500,
    contentType: 'application/soap+xml; charset=utf-8',
    body: writeSoapEnvelope('1.2', undefined, body),
  };
}

export function encodeHttpFault(fault: ServiceFault): EncodedFault {
  return {
    status: fault.httpStatus,
    contentType: 'text/plain; charset=utf-8',
    body: `${fault.code}: ${publicMessage(fault).replace(/[\r\n]+/g, ' ')}\n`,
  };
}
