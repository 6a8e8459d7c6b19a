// Cross-checks of the bindings (what the runtime engines can serve and call), the endpoint and the
// namespace rule.
import { uniqueNames, type CheckCtx, type Report } from './check-context.js';
import { didYouMean, type SourcePos } from './diagnostics.js';
import type { SpecBinding } from './format.js';

/** `type/subtype` and parameters; a charset must be UTF-8, the only encoding the runtime speaks. */
export function contentTypeProblem(s: string): string | undefined {
  const [type = '', ...params] = s.split(';').map((p) => p.trim());
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type))
    return `"${type}" is not a lower-case media type`;
  for (const p of params) {
    const m = /^([a-z0-9-]+)=("?)([^";]*)\2$/i.exec(p);
    if (!m) return `"${p}" is not a parameter`;
    if (m[1]!.toLowerCase() === 'charset' && !/^utf-8$/i.test(m[3]!))
      return `charset ${m[3]}: the runtime reads and writes UTF-8 only`;
  }
  return undefined;
}

const mediaTypeOf = (s: string) => s.split(';')[0]!.trim();
/** The form encoding the runtime reads HTTP POST parameters in. */
const FORM = 'application/x-www-form-urlencoded';

export function checkEndpoint(c: CheckCtx): void {
  const s = c.spec.service?.service;
  if (!s) return;
  if (!/^\/[^\s?#]*$/.test(s.endpointPath))
    c.report(s.pos, `endpointPath "${s.endpointPath}" must be a path starting with /`);
  if (!/^\{base_url\}\/[^\s?#{}]*$/.test(s.namespace.rule))
    c.report(
      s.namespace.pos,
      `namespace rule "${s.namespace.rule}" must be {base_url} followed by a path starting with /`,
    );
  checkContentType(c.report, s.wsdl.contentType, s.wsdl.pos);
}

export function checkContentType(report: Report, value: string, pos: SourcePos): void {
  const problem = contentTypeProblem(value);
  if (problem) report(pos, `content type ${JSON.stringify(value)}: ${problem}`);
}

function placeholders(s: string): string[] {
  return [...s.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
}

function checkPlaceholders(
  report: Report,
  what: string,
  value: string,
  allowed: string[],
  pos: SourcePos,
): void {
  for (const p of placeholders(value))
    if (!allowed.includes(p))
      report(
        pos,
        `${what} "${value}" uses {${p}}; it may use ${allowed.map((a) => `{${a}}`).join(' and ')}`,
        didYouMean(p, allowed),
      );
}

export function checkBindings(c: CheckCtx): void {
  const bindings = c.spec.service?.bindings;
  if (!bindings) return;
  uniqueNames(
    bindings.map((b) => ({ name: b.id, pos: b.pos })),
    'binding',
    c.report,
  );
  uniqueNames(
    bindings.map((b) => ({ name: b.wsdlName, pos: b.pos })),
    'wsdlName',
    c.report,
  );
  const routes = new Map<string, SpecBinding>();
  for (const b of bindings) {
    checkBinding(c, b);
    // The server finds the binding by path, method and (SOAP) media type: two must never meet.
    const route = `${b.method} ${b.path} ${b.kind === 'soap' ? mediaTypeOf(b.requestContentType ?? '') : ''}`;
    const other = routes.get(route);
    if (other)
      c.report(b.pos, `bindings "${other.id}" and "${b.id}" cannot be told apart by the server`);
    else routes.set(route, b);
  }
}

function checkBinding(c: CheckCtx, b: SpecBinding): void {
  const say = (message: string) => c.report(b.pos, `binding "${b.id}": ${message}`);
  c.checkGap(b.gap, b.pos);
  checkPlaceholders(c.report, 'path', b.path, ['endpoint', 'Operation'], b.pos);
  if (!b.path.startsWith('{endpoint}')) say('path must start with {endpoint}');
  const operationSlots = placeholders(b.path).filter((p) => p === 'Operation').length;
  for (const t of [b.requestContentType, b.responseContentType])
    if (t !== undefined) checkContentType(c.report, t, b.pos);
  if (b.kind === 'soap') {
    if (b.soapVersion === undefined) say('a SOAP binding needs soapVersion');
    if (b.method !== 'POST') say('SOAP is sent with POST');
    if (operationSlots !== 0) say('the operation of a SOAP request is in its body, not its path');
    if (b.requestContentType === undefined) say('a SOAP binding needs requestContentType');
    if (b.soapAction !== undefined)
      checkPlaceholders(
        c.report,
        'soapAction',
        b.soapAction,
        ['soap_namespace', 'Operation'],
        b.pos,
      );
    return;
  }
  if (b.soapVersion !== undefined || b.soapAction !== undefined)
    say('soapVersion and soapAction belong to SOAP bindings');
  if (operationSlots !== 1)
    say('an HTTP binding names the operation once in its path: {Operation}');
  if (b.method === 'GET' && b.requestContentType !== undefined)
    say('a GET request has no body, so no requestContentType');
  if (b.method === 'POST' && mediaTypeOf(b.requestContentType ?? '') !== FORM)
    say(`HTTP POST parameters are read as ${FORM}`);
}
