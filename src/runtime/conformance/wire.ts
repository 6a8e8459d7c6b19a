// Raw requests to the server under test, signed with exactly the values a check chooses, and
// answers described for people: a fault by its code and reason text, never a cut envelope.
import { parseSoapEnvelope, SOAP11_NS, SOAP12_NS, type XmlElement } from '../xml/index.js';
import {
  buildRequest,
  mediaType,
  signRequest,
  type AuthValues,
  type Binding,
  type PreparedRequest,
  type RequestOperation,
} from '../transport/index.js';
import { bindingDef, type Ctx } from './context.js';

export interface Raw {
  readonly status: number;
  readonly type: string;
  readonly body: Uint8Array;
}

/** Correctly signed values for `operation` at `timestamp` (stale or malformed ones included). */
export async function signed(c: Ctx, operation: string, timestamp: string): Promise<AuthValues> {
  return {
    Timestamp: timestamp,
    Operation: operation,
    Signature: await signRequest(c.o.secretKey, operation, timestamp),
    APIKey: c.o.apiKey,
  };
}

/**
 * The request for an operation call (an operation of the service, by name, or one made up);
 * `auth` null sends no credentials, undefined fresh ones.
 */
export function prepare<P extends object>(
  c: Ctx,
  op: string | RequestOperation<P>,
  params: P,
  binding: Binding,
  auth?: AuthValues | null,
): Promise<PreparedRequest> {
  return buildRequest(
    {
      endpoint: c.endpoint,
      ns: c.ns,
      apiKey: c.o.apiKey,
      secretKey: c.o.secretKey,
      auth: c.o.auth,
      timestamp: c.clock.next(),
      ...(auth !== undefined ? { tamper: () => auth ?? undefined } : {}),
    },
    typeof op === 'string' ? c.o.operations[op]! : op,
    params,
    bindingDef(c, binding),
  );
}

export async function fetchRaw(url: string, init: RequestInit): Promise<Raw> {
  const res = await fetch(url, init);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

export async function send(
  c: Ctx,
  opName: string,
  params: object,
  binding: Binding,
  auth?: AuthValues | null,
): Promise<Raw> {
  const req = await prepare(c, opName, params, binding, auth);
  return fetchRaw(req.url, req.init);
}

export interface FaultSummary {
  /** soap:Client, soap12:Sender... or undefined for HTTP answers. */
  readonly soapCode?: string;
  /** The detail's code element text, or the code before ':' of an HTTP text body. */
  readonly detailCode?: string;
  readonly reason: string;
  /** SOAP 1.2 Reason/Text xml:lang. */
  readonly lang?: string;
}

const kid = (el: XmlElement | undefined, name: string): XmlElement | undefined =>
  el?.children.find((c) => c.name === name);
const findDeep = (el: XmlElement, name: string): XmlElement | undefined =>
  el.name === name ? el : el.children.map((c) => findDeep(c, name)).find(Boolean);

/** The media types of the service's SOAP bindings: an answer in one of them may be a SOAP fault. */
function soapTypes(c: Ctx): Set<string> {
  return new Set(
    c.o.wire.bindings
      .filter((b) => b.kind === 'soap')
      .flatMap((b) => [b.requestContentType ?? '', b.responseContentType])
      .map((t) => mediaType(t).type),
  );
}

/** The fault an answer carries (SOAP 1.1, SOAP 1.2 or a text body), if it is one. */
export function faultOf(c: Ctx, raw: Raw): FaultSummary | undefined {
  const { type } = mediaType(raw.type);
  const text = new TextDecoder().decode(raw.body);
  const { detailElement } = c.o.wire.faults;
  if (soapTypes(c).has(type)) {
    let fault: XmlElement | undefined;
    try {
      fault = parseSoapEnvelope(raw.body).payload;
    } catch {
      return undefined;
    }
    if (!fault || fault.name !== 'Fault') return undefined;
    const detail = findDeep(fault, detailElement)?.text.trim();
    if (fault.ns === SOAP11_NS)
      return {
        soapCode: kid(fault, 'faultcode')?.text.trim() ?? '',
        reason: kid(fault, 'faultstring')?.text.trim() ?? '',
        ...(detail !== undefined ? { detailCode: detail } : {}),
      };
    if (fault.ns === SOAP12_NS) {
      const reason = kid(kid(fault, 'Reason'), 'Text');
      const lang = reason?.attributes['{http://www.w3.org/XML/1998/namespace}lang'];
      return {
        soapCode: kid(kid(fault, 'Code'), 'Value')?.text.trim() ?? '',
        reason: reason?.text.trim() ?? '',
        ...(detail !== undefined ? { detailCode: detail } : {}),
        ...(lang !== undefined ? { lang } : {}),
      };
    }
    return undefined;
  }
  const m = /^(\w+): ([^\n]*)/.exec(text);
  return m ? { detailCode: m[1]!, reason: m[2]! } : undefined;
}

/** One line for a report: `HTTP 500, fault soap:Client [AuthenticationFailed] "reason"`. */
export function describe(c: Ctx, raw: Raw): string {
  const f = faultOf(c, raw);
  if (f)
    return `HTTP ${raw.status}, fault ${[f.soapCode, f.detailCode && `[${f.detailCode}]`].filter(Boolean).join(' ')} ${JSON.stringify(f.reason)}`;
  const text = new TextDecoder().decode(raw.body).trim();
  const line = text.split('\n')[0]!.slice(0, 200);
  return `HTTP ${raw.status}, ${raw.type || 'no content type'}${text ? `: ${JSON.stringify(line)}` : ', empty body'}`;
}

/** Why an answer says the operation is not implemented, if it does. */
export function notImplemented(c: Ctx, raw: Raw): string | undefined {
  if (raw.status === 200) return undefined;
  const f = faultOf(c, raw);
  const said = f ? `${f.detailCode ?? ''} ${f.reason}` : new TextDecoder().decode(raw.body);
  // A table may name no code for it (the role is optional): no detail code is then no match.
  const code = c.o.wire.faults.raisedFor.notImplemented;
  if (
    raw.status === 501 ||
    (code !== undefined && f?.detailCode === code) ||
    /not\s*implemented|did not recognize|unknown operation/i.test(said)
  )
    return describe(c, raw);
  return undefined;
}
