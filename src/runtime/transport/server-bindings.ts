// The SOAP and HTTP GET/POST halves of the server pipeline: find the operation, check the binding's
// rules, authenticate, decode parameters, call the handler, encode the result.
import {
  NO_ELEMENT,
  XmlDecodeError,
  XmlParseError,
  XmlWriter,
  readSoapEnvelope,
  readXml,
  writeSoapMessage,
  type XmlDocument,
} from '../xml/index.js';
import type { HelpResponder } from '../help/serve.js';
import type { AuthValues } from './auth.js';
import {
  type AnyOperationDef,
  type Binding,
  CONTENT_TYPES,
  isNamespaceOfAnyHost,
  mediaType,
} from './binding.js';
import { ServiceFault } from './faults.js';
import type {
  RequestContext,
  ServiceHandlerOptions,
  ServiceRequest,
  ServiceResponse,
} from './server.js';
import { verifyAuth, type VerifyOptions } from './verify.js';

export interface Pipeline {
  readonly options: ServiceHandlerOptions;
  readonly ops: ReadonlyMap<string, AnyOperationDef>;
  /** `/API/1_0/SOAP/` */
  readonly namespacePath: string;
  /** No namespace fixed: it comes from the Host header, and host variants are accepted. */
  readonly namespaceFollowsHost: boolean;
  readonly verify: VerifyOptions;
  readonly maxBodyBytes: number;
  readonly help: HelpResponder | undefined;
}

interface Log {
  operation?: string;
  apiKeyName?: string;
  ns?: string;
}

const invalid = (message: string, status?: number) =>
  new ServiceFault('InvalidRequest', message, status);

/** `action` parameter of a SOAP 1.2 content type (quoted or not, with or without a space). */
function actionParameter(contentType: string): string | undefined {
  const m = /;\s*action\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType);
  return m ? (m[2] ?? m[1]) : undefined;
}

const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');

async function callHandler(
  p: Pipeline,
  op: AnyOperationDef,
  params: unknown,
  ctx: RequestContext,
): Promise<unknown> {
  const handler = (p.options.handlers as Record<string, unknown>)[op.method];
  if (typeof handler !== 'function')
    throw new ServiceFault('NotImplemented', `${op.name} is not implemented by this server`);
  return await (handler as (p: unknown, c: RequestContext) => unknown).call(
    p.options.handlers,
    params,
    ctx,
  );
}

export async function handleSoap(
  p: Pipeline,
  req: ServiceRequest,
  binding: 'soap11' | 'soap12',
  hostNs: string,
  log: Log,
): Promise<ServiceResponse> {
  let d: XmlDocument;
  let envelope;
  try {
    d = readXml(req.body, { maxBytes: p.maxBodyBytes });
    envelope = readSoapEnvelope(d);
  } catch (e) {
    if (e instanceof XmlDecodeError) throw invalid(e.message);
    if (e instanceof XmlParseError) throw invalid(e.message, e.code === 'limit' ? 413 : 400);
    throw e;
  }
  const version = binding === 'soap11' ? '1.1' : '1.2';
  refuseDuplicateHeaders(req, ['content-type', 'soapaction']);
  // One envelope, one meaning: a part sent twice is refused, never resolved by position.
  refuseDuplicateChildren(
    d,
    0,
    d.ns(0),
    (name) => `duplicate ${name}: the SOAP Envelope has it twice`,
  );
  if (envelope.version !== version)
    throw invalid(
      `a SOAP ${envelope.version} envelope was sent with the SOAP ${version} content type`,
    );
  const payload = envelope.payload;
  if (payload === NO_ELEMENT) throw invalid('the SOAP Body holds no operation element');
  const sent = d.ns(payload);
  const ns =
    sent === hostNs || (p.namespaceFollowsHost && isNamespaceOfAnyHost(sent, p.namespacePath))
      ? sent
      : undefined;
  const op = ns === undefined ? undefined : p.ops.get(d.name(payload));
  if (ns === undefined || !op)
    throw invalid(
      `unknown operation {${sent}}${d.name(payload)}; operations are in namespace ${hostNs}`,
    );
  log.operation = op.name;
  if (ns !== hostNs) log.ns = ns;

  const expectedAction = `${ns}${op.name}`;
  const type = req.headers['content-type'] ?? '';
  const action = binding === 'soap11' ? req.headers.soapaction : actionParameter(type);
  if (binding === 'soap11' && action === undefined)
    throw invalid(`SOAPAction header missing; expected "${expectedAction}"`);
  if (action !== undefined && unquote(action) !== expectedAction)
    throw invalid(
      `SOAPAction "${unquote(action)}" does not match the body's operation; expected "${expectedAction}"`,
    );

  const headerName = p.options.auth.headerElement;
  const headers =
    envelope.header === NO_ELEMENT
      ? []
      : d.children(envelope.header).filter((c) => d.name(c) === headerName && d.ns(c) === ns);
  if (headers.length > 1)
    throw invalid(`duplicate ${headerName}: the SOAP Header has ${headers.length}`);
  const header = headers[0];
  if (header === undefined)
    throw new ServiceFault('AuthenticationFailed', `${headerName} header missing`, 401);
  refuseDuplicateChildren(d, header, ns, (name) => `duplicate ${headerName} field ${name}`);
  refuseDuplicateChildren(d, payload, ns, (name) => `duplicate parameter ${name}`);
  let values: AuthValues;
  try {
    values = p.options.auth.decodeHeader(d, header);
  } catch (e) {
    if (e instanceof XmlDecodeError)
      throw new ServiceFault('AuthenticationFailed', `${headerName}: ${e.message}`, 401);
    throw e;
  }
  const key = await verifyAuth(values, op.name, p.verify);
  log.apiKeyName = key.name;
  const params = decodeParams(() => op.decodeSoapRequest(d, payload, ns), d.name(payload));
  const result = await callHandler(p, op, params, {
    apiKey: values.APIKey,
    apiKeyName: key.name,
    operation: op.name,
    binding,
  });
  const body = writeSoapMessage(version, undefined, (out) =>
    op.encodeSoapResponse(result, ns, out),
  ).bytes();
  return {
    status: 200,
    headers: { 'content-type': binding === 'soap11' ? CONTENT_TYPES.soap11 : CONTENT_TYPES.soap12 },
    body,
  };
}

/** InvalidRequest when two element children of `el` in `ns` share a name. */
function refuseDuplicateChildren(
  d: XmlDocument,
  el: number,
  ns: string,
  message: (name: string) => string,
): void {
  const seen = new Set<string>();
  const nsId = d.nsId(ns);
  for (let c = d.firstChild(el); c !== NO_ELEMENT; c = d.nextSibling(c)) {
    if (d.nsIdOf(c) !== nsId) continue;
    const name = d.name(c);
    if (seen.has(name)) throw invalid(message(name));
    seen.add(name);
  }
}

/** InvalidRequest when one of these header fields (lower-case) came more than once. */
function refuseDuplicateHeaders(req: ServiceRequest, names: readonly string[]): void {
  const twice = req.duplicateHeaders;
  if (twice === undefined || twice.length === 0) return;
  for (const name of names)
    if (twice.includes(name)) throw invalid(`duplicate HTTP header field ${name}`);
}

/** Decoded parameters; a decode error is InvalidParameter, its path starting at `element` when given. */
function decodeParams(decode: () => unknown, element?: string): unknown {
  try {
    return decode();
  } catch (e) {
    if (e instanceof XmlDecodeError)
      throw new ServiceFault(
        'InvalidParameter',
        element !== undefined ? e.prepend(element).message : e.message,
      );
    throw e;
  }
}

export async function handleHttp(
  p: Pipeline,
  req: ServiceRequest,
  op: AnyOperationDef,
  binding: Binding,
  url: URL,
  ns: string,
  log: Log,
): Promise<ServiceResponse> {
  let form = url.searchParams;
  if (req.method === 'POST') {
    const { type } = mediaType(req.headers['content-type']);
    if (type !== CONTENT_TYPES.form)
      throw invalid(`content type must be ${CONTENT_TYPES.form}, got "${type || 'none'}"`, 415);
    form = new URLSearchParams(new TextDecoder().decode(req.body));
    for (const name of url.searchParams.keys())
      if (form.has(name)) throw invalid(`duplicate parameter ${name}: in the query and the body`);
  }
  const names = new Set<string>();
  for (const name of form.keys()) {
    if (names.has(name)) throw invalid(`duplicate parameter ${name}`);
    names.add(name);
  }
  const h = p.options.auth.httpHeaders;
  const credentialNames = new Set([h.apiKey, h.timestamp, h.signature].map((n) => n.toLowerCase()));
  for (const name of new Set([...form.keys(), ...url.searchParams.keys()])) {
    if (credentialNames.has(name.toLowerCase()))
      throw invalid(
        `credentials must travel as the HTTP headers ${h.apiKey}, ${h.timestamp} and ${h.signature}, never as the parameter "${name}"`,
      );
  }
  refuseDuplicateHeaders(
    req,
    ['content-type', h.apiKey, h.timestamp, h.signature, h.operation].map((n) => n.toLowerCase()),
  );
  const header = (name: string) => req.headers[name.toLowerCase()];
  const sentOperation = header(h.operation);
  const values = {
    APIKey: header(h.apiKey),
    Timestamp: header(h.timestamp),
    Signature: header(h.signature),
    Operation: sentOperation ?? op.name,
  };
  const key = await verifyAuth(values, op.name, p.verify);
  log.apiKeyName = key.name;
  const params = decodeParams(() => op.decodeHttpRequest(form));
  const result = await callHandler(p, op, params, {
    apiKey: values.APIKey!,
    apiKeyName: key.name,
    operation: op.name,
    binding,
  });
  const out = new XmlWriter();
  op.encodeHttpResponse(result, ns, out);
  return { status: 200, headers: { 'content-type': CONTENT_TYPES.xml }, body: out.bytes() };
}
