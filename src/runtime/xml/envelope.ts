// SOAP 1.1 and SOAP 1.2 envelopes, matched by namespace URI (never by prefix: real clients send
// soap:, soap-env:, SOAP-ENV:, S:, soap12: or default namespaces).
import { XSD_NS, XSI_NS, type XmlElement } from './dom.js';
import { XmlDecodeError } from './errors.js';

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
export const XSI_XSD_DECLARATIONS = ` xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}"`;

export type SoapVersion = '1.1' | '1.2';

export interface SoapEnvelope {
  readonly version: SoapVersion;
  readonly header: XmlElement | undefined;
  readonly body: XmlElement;
  /** The one element child of Body (the operation, response or Fault element). */
  readonly payload: XmlElement | undefined;
}

export function readSoapEnvelope(root: XmlElement): SoapEnvelope {
  const version = root.ns === SOAP11_NS ? '1.1' : root.ns === SOAP12_NS ? '1.2' : undefined;
  if (root.name !== 'Envelope' || version === undefined) {
    throw new XmlDecodeError(root.name, 'a SOAP 1.1 or SOAP 1.2 Envelope', `${root.name} in namespace ${root.ns || '(none)'}`);
  }
  let header: XmlElement | undefined;
  let body: XmlElement | undefined;
  for (const c of root.children) {
    if (c.ns !== root.ns) continue;
    if (c.name === 'Header') header = c;
    else if (c.name === 'Body') body = c;
  }
  if (!body) throw new XmlDecodeError('Envelope/Body', 'a SOAP Body', undefined);
  if (body.children.length > 1) throw new XmlDecodeError('Envelope/Body', 'one element in the SOAP Body', `${body.children.length} elements`);
  return { version, header, body, payload: body.children[0] };
}

const PREFIX: Record<SoapVersion, [string, string]> = { '1.1': ['soap', SOAP11_NS], '1.2': ['soap12', SOAP12_NS] };

/** A whole SOAP message, written the way ASMX writes it. */
export function writeSoapEnvelope(version: SoapVersion, headerXml: string | undefined, bodyXml: string): string {
  const [p, ns] = PREFIX[version];
  const header = headerXml === undefined ? '' : `<${p}:Header>${headerXml}</${p}:Header>`;
  return `${XML_DECLARATION}<${p}:Envelope${XSI_XSD_DECLARATIONS} xmlns:${p}="${ns}">${header}<${p}:Body>${bodyXml}</${p}:Body></${p}:Envelope>`;
}
