// The WSDL, and a request for an operation the interface does not have.
import { escapeAttr, parseXml, type XmlElement } from '../xml/index.js';
import type { Binding, RequestOperation } from '../transport/index.js';
import type { Ctx } from './context.js';
import { REFUSALS } from './refusals.js';
import { CHECK_NAMES, resultOf, type ConformanceResult } from './results.js';
import type { Refused } from './security.js';
import { refusalFailures } from './security.js';
import { fetchRaw, prepare, type Raw } from './wire.js';

/** Not an operation of any interface: `Operation` followed by a letter no catalogue name has. */
const UNKNOWN = 'NoSuchOperation';

/** An operation element with no parameters, and no form fields. */
const UNKNOWN_OPERATION: RequestOperation<object> = {
  name: UNKNOWN,
  encodeSoapRequest: (_params, ns) => `<${UNKNOWN} xmlns="${escapeAttr(ns)}"/>`,
  encodeHttpRequest: () => new URLSearchParams(),
};

export async function checkWsdl(c: Ctx): Promise<ConformanceResult> {
  let failures: string[];
  try {
    const res = await fetch(`${c.endpoint}?wsdl`);
    const body = new Uint8Array(await res.arrayBuffer());
    failures = wsdlFailures(c, { status: res.status, type: res.headers.get('content-type'), body });
  } catch (e) {
    failures = [`no readable WSDL: ${(e as Error).message}`];
  }
  return resultOf(
    c.model,
    'wsdl',
    { group: 'WSDL', binding: 'wsdl', check: CHECK_NAMES.wsdl },
    failures,
  );
}

/** What is wrong with an answer to GET {endpoint}?wsdl: status, content type, namespace, operations. */
export function wsdlFailures(
  c: Ctx,
  res: { readonly status: number; readonly type: string | null; readonly body: Uint8Array },
): string[] {
  const failures: string[] = [];
  if (res.status !== 200) failures.push(`GET ?wsdl answered ${res.status}`);
  if (res.type !== c.o.wire.wsdlContentType) failures.push(`?wsdl content type ${res.type}`);
  try {
    const root = parseXml(res.body);
    if (root.attributes.targetNamespace !== c.ns)
      failures.push(`targetNamespace ${root.attributes.targetNamespace}, expected ${c.ns}`);
    const names = new Set<string>();
    const walk = (el: XmlElement): void => {
      if (el.name === 'operation' && el.attributes.name) names.add(el.attributes.name);
      el.children.forEach(walk);
    };
    walk(root);
    for (const op of c.model.operations)
      if (!names.has(op.name)) failures.push(`the WSDL has no operation ${op.name}`);
  } catch (e) {
    failures.push(`no readable WSDL: ${(e as Error).message}`);
  }
  return failures;
}

/** A correctly signed request, in the binding's form, for an operation that does not exist. */
export async function sendUnknown(c: Ctx, binding: Binding): Promise<Raw> {
  const req = await prepare(c, UNKNOWN_OPERATION, {}, binding);
  return fetchRaw(req.url, req.init);
}

export async function checkUnknownOperation(
  c: Ctx,
  binding: Binding,
  refused: Refused[],
): Promise<ConformanceResult> {
  const { check } = REFUSALS.unknownOperation;
  const raw = await sendUnknown(c, binding);
  if (raw.status !== 200)
    refused.push({ binding, check, raw, code: c.model.checks.unknownOperation.fault! });
  return resultOf(
    c.model,
    'unknownOperation',
    { group: 'Errors', binding, check },
    refusalFailures(c, binding, raw),
  );
}
