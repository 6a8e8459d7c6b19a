// The WSDL, authentication refusals and fault shapes, per binding.
import {
  parseSoapEnvelope,
  parseXml,
  SOAP11_NS,
  SOAP12_NS,
  type XmlElement,
} from '../xml/index.js';
import type { AuthValues, Binding } from '../transport/index.js';
import type { Findings } from './model.js';
import { send, type ConformanceResult, type Ctx, type Raw } from './runner.js';

const result = (
  group: string,
  binding: ConformanceResult['binding'],
  name: string,
  f: Findings,
): ConformanceResult => ({
  group,
  binding,
  name,
  status: f.failures.length ? 'fail' : 'pass',
  failures: f.failures,
  warnings: f.warnings,
});
const find = (el: XmlElement, name: string): XmlElement | undefined =>
  el.name === name ? el : el.children.map((c) => find(c, name)).find(Boolean);

export async function checkWsdl(c: Ctx): Promise<ConformanceResult> {
  const f: Findings = { failures: [], warnings: [] };
  const res = await fetch(`${c.endpoint}?wsdl`);
  if (res.status !== 200) f.failures.push(`GET ?wsdl answered ${res.status}`);
  if (res.headers.get('content-type') !== 'text/xml; charset=utf-8')
    f.failures.push(`?wsdl content type ${res.headers.get('content-type')}`);
  const root = parseXml(new Uint8Array(await res.arrayBuffer()));
  if (root.attributes.targetNamespace !== c.ns)
    f.failures.push(`targetNamespace ${root.attributes.targetNamespace}, expected ${c.ns}`);
  const names = new Set<string>();
  const walk = (el: XmlElement) => (
    el.name === 'operation' && el.attributes.name && names.add(el.attributes.name),
    el.children.forEach(walk)
  );
  walk(root);
  for (const op of c.o.model.operations)
    if (!names.has(op.name)) f.failures.push(`the WSDL has no operation ${op.name}`);
  return result('WSDL', 'wsdl', '?wsdl describes every operation', f);
}

/** A fault answer in the binding's form: SOAP 1.1 500 Client/Server, SOAP 1.2 400/500 Sender/Receiver, HTTP status. */
export function checkFault(
  binding: Binding,
  raw: Raw,
  want: { soapWho: 'Client' | 'Server'; httpStatuses: number[]; code?: string },
  f: Findings,
): void {
  const text = new TextDecoder().decode(raw.body);
  if (binding === 'httpGet' || binding === 'httpPost') {
    if (!want.httpStatuses.includes(raw.status))
      f.failures.push(`HTTP status ${raw.status}, expected ${want.httpStatuses.join(' or ')}`);
    if (raw.status === 200) f.failures.push('the request was accepted');
    return;
  }
  const v11 = binding === 'soap11';
  const status = v11 ? 500 : want.soapWho === 'Client' ? 400 : 500;
  if (raw.status !== status && raw.status !== 413 && raw.status !== 415)
    f.failures.push(`HTTP status ${raw.status}, expected ${status} with a SOAP Fault`);
  let fault: XmlElement | undefined;
  try {
    fault = parseSoapEnvelope(raw.body).payload;
  } catch {
    return void f.failures.push(`no SOAP Fault in the answer: ${text.slice(0, 120)}`);
  }
  if (!fault || fault.name !== 'Fault' || fault.ns !== (v11 ? SOAP11_NS : SOAP12_NS))
    return void f.failures.push(
      `Body holds ${fault?.name ?? 'nothing'}, expected a SOAP ${v11 ? '1.1' : '1.2'} Fault`,
    );
  const code = v11 ? find(fault, 'faultcode')?.text : find(fault, 'Value')?.text;
  const wantCode = v11
    ? `:${want.soapWho}`
    : `:${want.soapWho === 'Client' ? 'Sender' : 'Receiver'}`;
  if (!code?.endsWith(wantCode)) f.failures.push(`fault code ${code}, expected …${wantCode}`);
  if (v11 && !find(fault, 'faultstring')) f.failures.push('faultstring missing');
  if (!v11) {
    const reason = find(fault, 'Text');
    if (!reason) f.failures.push('Reason/Text missing');
    else if (reason.attributes['{http://www.w3.org/XML/1998/namespace}lang'] !== 'en')
      f.failures.push('Reason/Text has no xml:lang="en"');
  }
  if (want.code && find(fault, 'ErrorCode')?.text !== want.code)
    f.failures.push(`detail ErrorCode ${find(fault, 'ErrorCode')?.text}, expected ${want.code}`);
}

const REFUSALS: {
  name: string;
  tamper: (v: AuthValues) => AuthValues | undefined;
  status: number[];
}[] = [
  {
    name: 'wrong signature',
    tamper: (v) => ({ ...v, Signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' }),
    status: [403],
  },
  {
    name: 'unknown API key',
    tamper: (v) => ({ ...v, APIKey: `unknown-${v.APIKey}` }),
    status: [401, 403],
  },
  {
    name: 'stale timestamp',
    tamper: (v) => ({ ...v, Timestamp: new Date(Date.now() - 3_600_000).toISOString() }),
    status: [401, 403],
  },
  {
    name: 'future timestamp',
    tamper: (v) => ({ ...v, Timestamp: new Date(Date.now() + 3_600_000).toISOString() }),
    status: [401, 403],
  },
  {
    name: 'malformed timestamp',
    tamper: (v) => ({ ...v, Timestamp: v.Timestamp.replace('T', ' ') }),
    status: [401, 403],
  },
  {
    name: 'Operation naming another operation',
    tamper: (v) => ({ ...v, Operation: 'GetShows' }),
    status: [401, 403],
  },
  { name: 'missing credentials', tamper: () => undefined, status: [401, 403] },
];

export async function checkAuthentication(
  c: Ctx,
  binding: Binding,
  out: ConformanceResult[],
): Promise<void> {
  // Refusals use a read operation without parameters; a refused request must never succeed.
  const op = 'GetSubClientCompanyList';
  for (const r of REFUSALS) {
    const f: Findings = { failures: [], warnings: [] };
    const raw = await send(c, op, {}, binding, r.tamper);
    checkFault(
      binding,
      raw,
      { soapWho: 'Client', httpStatuses: r.status, code: 'AuthenticationFailed' },
      f,
    );
    out.push(result('Authentication', binding, `refuses ${r.name}`, f));
  }
  const f: Findings = { failures: [], warnings: [] };
  let captured: AuthValues | undefined;
  const first = await send(c, op, {}, binding, (v) => (captured = v));
  if (first.status !== 200) f.failures.push(`the original request was refused (${first.status})`);
  const again = await send(c, op, {}, binding, () => captured);
  checkFault(
    binding,
    again,
    { soapWho: 'Client', httpStatuses: [401, 403], code: 'AuthenticationFailed' },
    f,
  );
  out.push(result('Authentication', binding, 'refuses a replayed request', f));
}

export async function checkErrors(
  c: Ctx,
  binding: Binding,
  out: ConformanceResult[],
): Promise<void> {
  const f: Findings = { failures: [], warnings: [] };
  if (binding === 'soap11' || binding === 'soap12') {
    const type =
      binding === 'soap11' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8';
    const res = await fetch(c.endpoint, {
      method: 'POST',
      headers: { 'content-type': type, soapaction: '"x"' },
      body: '<not-xml',
    });
    checkFault(
      binding,
      {
        status: res.status,
        type: res.headers.get('content-type') ?? '',
        body: new Uint8Array(await res.arrayBuffer()),
      },
      { soapWho: 'Client', httpStatuses: [] },
      f,
    );
    out.push(result('Errors', binding, 'answers malformed XML with a Client fault', f));
    return;
  }
  const res = await fetch(`${c.endpoint}/NoSuchOperation`, {
    method: binding === 'httpGet' ? 'GET' : 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.status !== 404) f.failures.push(`unknown operation answered ${res.status}, expected 404`);
  out.push(result('Errors', binding, 'answers an unknown operation with 404', f));
}
