// SOAP 1.1 and SOAP 1.2 envelopes, matched by namespace URI (never by prefix: real clients send
// soap:, soap-env:, SOAP-ENV:, S:, soap12: or default namespaces).
import { XSD_NS, XSI_NS, type XmlElement } from './dom.js';
import { NO_ELEMENT, type XmlDocument } from './document.js';
import { XmlDecodeError } from './errors.js';
import { readXml, type XmlLimits } from './parse.js';
import { XmlWriter } from './writer.js';

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
export const XSI_XSD_DECLARATIONS = ` xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}"`;

export type SoapVersion = '1.1' | '1.2';

/** Elements of a SOAP message, as numbers in its XmlDocument (NO_ELEMENT when absent). */
export interface SoapEnvelope {
  readonly version: SoapVersion;
  readonly header: number;
  readonly body: number;
  /** The one element child of Body (the operation, response or Fault element). */
  readonly payload: number;
}

export function readSoapEnvelope(d: XmlDocument): SoapEnvelope {
  const ns = d.ns(0);
  const version = ns === SOAP11_NS ? '1.1' : ns === SOAP12_NS ? '1.2' : undefined;
  if (d.name(0) !== 'Envelope' || version === undefined) {
    throw new XmlDecodeError(
      d.name(0),
      'a SOAP 1.1 or SOAP 1.2 Envelope',
      `${d.name(0)} in namespace ${ns || '(none)'}`,
    );
  }
  let header = NO_ELEMENT;
  let body = NO_ELEMENT;
  for (const c of d.children(0)) {
    if (d.ns(c) !== ns) continue;
    if (d.name(c) === 'Header') header = c;
    else if (d.name(c) === 'Body') body = c;
  }
  if (body === NO_ELEMENT) throw new XmlDecodeError('Envelope/Body', 'a SOAP Body', undefined);
  const inBody = d.children(body);
  if (inBody.length > 1)
    throw new XmlDecodeError(
      'Envelope/Body',
      'one element in the SOAP Body',
      `${inBody.length} elements`,
    );
  return { version, header, body, payload: inBody[0] ?? NO_ELEMENT };
}

/** The same, as XmlElement trees: for faults, tools and tests, where messages are small. */
export interface SoapEnvelopeTree {
  readonly version: SoapVersion;
  readonly header: XmlElement | undefined;
  readonly body: XmlElement;
  readonly payload: XmlElement | undefined;
}

export function parseSoapEnvelope(
  input: string | Uint8Array,
  limits?: Partial<XmlLimits>,
): SoapEnvelopeTree {
  const d = readXml(input, limits);
  const { version, header, body, payload } = readSoapEnvelope(d);
  const tree = (el: number) => (el === NO_ELEMENT ? undefined : d.element(el));
  return { version, header: tree(header), body: d.element(body), payload: tree(payload) };
}

const PREFIX: Record<SoapVersion, [string, string]> = {
  '1.1': ['soap', SOAP11_NS],
  '1.2': ['soap12', SOAP12_NS],
};

/** What comes before and after the Body's content in a SOAP message, written the way ASMX writes it. */
export function soapEnvelopeParts(
  version: SoapVersion,
  headerXml: string | undefined,
): readonly [string, string] {
  const [p, ns] = PREFIX[version];
  const header = headerXml === undefined ? '' : `<${p}:Header>${headerXml}</${p}:Header>`;
  return [
    `${XML_DECLARATION}<${p}:Envelope${XSI_XSD_DECLARATIONS} xmlns:${p}="${ns}">${header}<${p}:Body>`,
    `</${p}:Body></${p}:Envelope>`,
  ];
}

/** A whole SOAP message whose Body content `writeBody` writes: UTF-8 bytes in pieces (responses). */
export function writeSoapMessage(
  version: SoapVersion,
  headerXml: string | undefined,
  writeBody: (out: XmlWriter) => void,
): XmlWriter {
  const [start, end] = soapEnvelopeParts(version, headerXml);
  const out = new XmlWriter();
  out.write(start);
  writeBody(out);
  out.write(end);
  return out;
}

/** A whole SOAP message as a string (requests, faults). */
export function writeSoapEnvelope(
  version: SoapVersion,
  headerXml: string | undefined,
  bodyXml: string,
): string {
  const [start, end] = soapEnvelopeParts(version, headerXml);
  return start + bodyXml + end;
}
