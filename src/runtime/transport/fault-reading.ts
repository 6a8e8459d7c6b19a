// The one reader of fault answers, shared by the client (ServiceError) and the conformance checker:
// SOAP 1.1 and SOAP 1.2 faults (the 1.2 detail as soap12:Detail, or unqualified <detail> as Mono
// writes it), and text answers: the service's `<Code>: <message>`, and ASMX's HTTP GET/POST
// errors, a .NET exception's text (`System.ArgumentException: message` and its stack trace), whose
// type and message are read from SOAP fault strings too.
import { mediaType } from './binding.js';
import type { FaultTable } from './wire.js';
import { parseSoapEnvelope, SOAP11_NS, SOAP12_NS, type XmlElement } from '../xml/index.js';

export interface FaultReading {
  /** soap:Client, soap12:Sender…; undefined for a text answer. */
  readonly soapCode?: string;
  /** The detail's code element, or the code before ':' of a text answer. */
  readonly detailCode?: string;
  /** The message: of a .NET exception, without its type, inner wrappers and stack trace. */
  readonly reason: string;
  /** The fault text as sent (faultstring, Reason/Text, the text body), stack trace included. */
  readonly text: string;
  /** SOAP 1.2 Reason/Text xml:lang. */
  readonly lang?: string;
  /** The .NET exception type an ASMX answer names (the innermost one), e.g. System.ArgumentException. */
  readonly exceptionType?: string;
}

const kid = (el: XmlElement | undefined, name: string): XmlElement | undefined =>
  el?.children.find((c) => c.name === name);
const findDeep = (el: XmlElement, name: string): XmlElement | undefined =>
  el.name === name ? el : el.children.map((c) => findDeep(c, name)).find(Boolean);

/** `Type: message` where Type is a .NET exception type (its name ends in Exception). */
const EXCEPTION = /^((?:[A-Za-z_][\w`]*\.)*[A-Za-z_]\w*Exception)(?:: ?|$)/;
/** The start of a .NET stack trace, or of the end of an inner exception's. */
const TRACE = /\r?\n\s*(?:at |--- End of inner exception stack trace ---)/;

/** A .NET exception's type and message from its text; ASMX wraps what was thrown (` ---> `). */
function dotnet(text: string): { type: string; message: string } | undefined {
  let rest = text.split(TRACE)[0]!;
  let found: { type: string; message: string } | undefined;
  for (;;) {
    const m = EXCEPTION.exec(rest);
    if (!m) return found;
    const body = rest.slice(m[0].length);
    const inner = body.indexOf(' ---> ');
    found = { type: m[1]!, message: (inner < 0 ? body : body.slice(0, inner)).trim() };
    if (inner < 0) return found;
    rest = body.slice(inner + ' ---> '.length);
  }
}

/** The message and exception type of a fault text. */
function message(text: string): Pick<FaultReading, 'reason' | 'exceptionType'> {
  const e = dotnet(text.trim());
  return e ? { reason: e.message, exceptionType: e.type } : { reason: text.trim() };
}

/** A SOAP Fault element (1.1 or 1.2), or undefined for anything else. */
export function readSoapFault(fault: XmlElement, detailElement: string): FaultReading | undefined {
  if (fault.name !== 'Fault' || (fault.ns !== SOAP11_NS && fault.ns !== SOAP12_NS))
    return undefined;
  const v11 = fault.ns === SOAP11_NS;
  // SOAP 1.1's detail is unqualified; SOAP 1.2's is env:Detail, but Mono writes <detail> there too.
  const detail = fault.children.find(
    (c) => (c.name === 'detail' || c.name === 'Detail') && (c.ns === '' || c.ns === fault.ns),
  );
  const code = detail ? findDeep(detail, detailElement)?.text.trim() : undefined;
  const reasonEl = v11 ? kid(fault, 'faultstring') : kid(kid(fault, 'Reason'), 'Text');
  const text = reasonEl?.text ?? '';
  const lang = v11 ? undefined : reasonEl?.attributes['{http://www.w3.org/XML/1998/namespace}lang'];
  return {
    soapCode: (v11 ? kid(fault, 'faultcode') : kid(kid(fault, 'Code'), 'Value'))?.text.trim() ?? '',
    ...(code !== undefined ? { detailCode: code } : {}),
    ...message(text),
    text,
    ...(lang !== undefined ? { lang } : {}),
  };
}

/** A text answer: `<Code>: <message>`, or a .NET exception's text. */
function readTextFault(text: string): FaultReading | undefined {
  const e = dotnet(text);
  if (e) return { reason: e.message, exceptionType: e.type, text };
  const m = /^(\w+): ([^\n]*)/.exec(text);
  return m ? { detailCode: m[1]!, reason: m[2]!.trim(), text } : undefined;
}

/**
 * The fault an answer carries, if it is one: a text answer where the content type is the fault
 * table's text type, or the body is no markup; a SOAP fault otherwise (servers differ on the
 * content type of a fault, so the body decides).
 */
export function readFault(
  body: Uint8Array,
  contentType: string,
  faults: Pick<FaultTable, 'detailElement' | 'httpContentType'>,
): FaultReading | undefined {
  const text = new TextDecoder().decode(body);
  const plain = mediaType(contentType).type === mediaType(faults.httpContentType).type;
  if (plain || !/^\s*</.test(text)) return readTextFault(text);
  try {
    const payload = parseSoapEnvelope(body).payload;
    return payload ? readSoapFault(payload, faults.detailElement) : undefined;
  } catch {
    return undefined; // not a SOAP envelope: an error page
  }
}
