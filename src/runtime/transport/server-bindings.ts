// The SOAP and HTTP GET/POST halves of the server pipeline: find the operation, check the binding's
// rules, authenticate, decode parameters, call the handler, encode the result.
import {
  NO_ELEMENT,
  XmlDecodeError,
  cutInput,
  quoteInput,
  XmlParseError,
  XmlWriter,
  readSoapEnvelope,
  readXml,
  writeSoapMessage,
  type XmlDocument,
} from '../xml/index.js';
import type { HelpResponder } from '../help/serve.js';
import type { AuthValues } from './auth.js';
import type { AnyOperationDef } from './binding.js';
import { EngineFault } from './faults.js';
import type { BoundedCache } from './memo.js';
import type {
  RequestContext,
  ServiceHandlerOptions,
  ServiceRequest,
  ServiceResponse,
} from './server.js';
import { verifyAuth, type VerifyOptions } from './verify.js';
import {
  type BindingDef,
  fill,
  isNamespaceOfAnyHost,
  requestMediaType,
  sentSoapAction,
  unquoteAction,
} from './wire.js';

export interface Pipeline {
  readonly options: ServiceHandlerOptions;
  readonly ops: ReadonlyMap<string, AnyOperationDef>;
  /** No namespace fixed: it comes from the Host header, and host variants are accepted. */
  readonly namespaceFollowsHost: boolean;
  readonly verify: VerifyOptions;
  readonly maxBodyBytes: number;
  /** SOAP bindings by path, then by request media type. */
  readonly soapByPath: ReadonlyMap<string, ReadonlyMap<string, BindingDef>>;
  /** HTTP bindings by the path around `{Operation}`, then by method. */
  readonly httpRoutes: readonly {
    readonly prefix: string;
    readonly suffix: string;
    readonly byMethod: Map<string, BindingDef>;
  }[];
  readonly help: HelpResponder | undefined;
  /** The SOAPAction expected, by binding, namespace and operation. */
  readonly soapActions: BoundedCache<readonly [action: string, quoted: string]>;
}

/** What the request log learns on the way; `binding` also chooses the form of a fault. */
export interface Log {
  operation: string | undefined;
  binding: BindingDef | undefined;
  apiKeyName: string | undefined;
  /** Set for a page rather than an operation call. */
  page?: 'wsdl' | 'help';
  /** The namespace a SOAP request was answered in, when not the Host's (see `namespace`). */
  ns?: string;
}

const invalid = (message: string, status?: number) => new EngineFault('request', message, status);

/**
 * Refused before anything reads the body: a Content-Encoding other than identity (415, RFC 9110
 * 15.5.16: the body is not decoded, so it is neither read as plain text nor inflated past the
 * size limit), and a body longer than the limit (413).
 */
function checkBody(p: Pipeline, req: ServiceRequest): void {
  const coding = req.headers['content-encoding']?.trim();
  if (coding && coding.toLowerCase() !== 'identity')
    throw new EngineFault(
      'request',
      `Content-Encoding ${cutInput(coding)} is not accepted: send the body as it is (identity)`,
      415,
      { 'accept-encoding': 'identity' },
    );
  const over = req.bodyLimitExceeded ?? (req.body.byteLength > p.maxBodyBytes ? p.maxBodyBytes : 0);
  if (over > 0) throw invalid(`request body larger than ${over} bytes`, 413);
}

/** The handler's result, or the promise of it. */
function callHandler(
  p: Pipeline,
  op: AnyOperationDef,
  params: unknown,
  ctx: RequestContext,
): unknown {
  const handler = (p.options.handlers as Record<string, unknown>)[op.method];
  if (typeof handler !== 'function')
    throw new EngineFault('notImplemented', `${op.name} is not implemented by this server`);
  return (handler as (p: unknown, c: RequestContext) => unknown).call(
    p.options.handlers,
    params,
    ctx,
  );
}

export async function handleSoap(
  p: Pipeline,
  req: ServiceRequest,
  binding: BindingDef,
  hostNs: string,
  log: Log,
): Promise<ServiceResponse> {
  checkBody(p, req);
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
  const version = binding.soapVersion ?? '1.1';
  refuseDuplicateHeaders(req, ['content-type', 'soapaction', 'content-encoding']);
  // SOAP 1.1 4.1 and 1.2 5: the Header, when present, is the Envelope's first child.
  if (envelope.header !== NO_ELEMENT && envelope.header > envelope.body)
    throw invalid('the SOAP Header must come before the Body');
  // One envelope, one meaning: a part sent twice is refused, never resolved by position.
  refuseDuplicateChildren(
    d,
    0,
    d.ns(0),
    (name) => `duplicate ${cutInput(name)}: the SOAP Envelope has it twice`,
  );
  if (envelope.version !== version)
    throw invalid(
      `a SOAP ${envelope.version} envelope was sent with the SOAP ${version} content type`,
    );
  const payload = envelope.payload;
  if (payload === NO_ELEMENT) throw invalid('the SOAP Body holds no operation element');
  const sent = d.ns(payload);
  const ns =
    sent === hostNs ||
    (p.namespaceFollowsHost && isNamespaceOfAnyHost(sent, p.options.wire.namespace))
      ? sent
      : undefined;
  const op = ns === undefined ? undefined : p.ops.get(d.name(payload));
  if (ns === undefined || !op)
    throw invalid(
      `unknown operation ${cutInput(`{${sent}}${d.name(payload)}`)}; operations are in namespace ${hostNs}`,
    );
  log.operation = op.name;
  if (ns !== hostNs) log.ns = ns;

  checkAction(p, binding, req, ns, op.name);

  const headerName = p.options.auth.headerElement;
  const headers =
    envelope.header === NO_ELEMENT
      ? []
      : d.children(envelope.header).filter((c) => d.name(c) === headerName && d.ns(c) === ns);
  if (headers.length > 1)
    throw invalid(`duplicate ${headerName}: the SOAP Header has ${headers.length}`);
  const header = headers[0];
  if (header === undefined)
    throw new EngineFault('authentication', `${headerName} header missing`, 401);
  refuseDuplicateChildren(
    d,
    header,
    ns,
    (name) => `duplicate ${headerName} field ${cutInput(name)}`,
  );
  refuseDuplicateChildren(d, payload, ns, (name) => `duplicate parameter ${cutInput(name)}`);
  let values: AuthValues;
  try {
    values = p.options.auth.decodeHeader(d, header);
  } catch (e) {
    if (e instanceof XmlDecodeError)
      throw new EngineFault('authentication', `${headerName}: ${e.message}`, 401);
    throw e;
  }
  const key = await verifyAuth(values, op.name, p.verify);
  log.apiKeyName = key.name;
  const params = decodeParams(() => op.decodeSoapRequest(d, payload, ns), d.name(payload));
  const result = await callHandler(p, op, params, {
    apiKey: values.APIKey,
    apiKeyName: key.name,
    operation: op.name,
    binding: binding.id,
  });
  const body = writeSoapMessage(version, undefined, (out) =>
    op.encodeSoapResponse(result, ns, out),
  ).content();
  return { status: 200, headers: { 'content-type': binding.responseContentType }, body };
}

/**
 * The binding's SOAPAction rule: SOAP 1.1 sends it as the SOAPAction header (required), SOAP 1.2 as
 * the action parameter of the Content-Type (optional). Quotes around the value do not count.
 */
function checkAction(
  p: Pipeline,
  binding: BindingDef,
  req: ServiceRequest,
  ns: string,
  operation: string,
) {
  const template = binding.soapAction;
  if (template === null) return;
  // Computed once per binding, namespace and operation (XML names hold no NUL), with its quoted
  // form: what clients send, compared as it is before the slower unquoting.
  const [expected, quoted] = p.soapActions.get(`${binding.id}\u0000${ns}\u0000${operation}`, () => {
    const action = unquoteAction(fill(template, { soap_namespace: ns, Operation: operation }));
    return [action, `"${action}"`] as const;
  });
  const sent = sentSoapAction(binding, req.headers);
  if (binding.soapVersion === '1.1' && sent === undefined)
    throw invalid(`SOAPAction header missing; expected "${expected}"`);
  if (
    sent !== undefined &&
    sent !== quoted &&
    sent !== expected &&
    unquoteAction(sent) !== expected
  )
    throw invalid(
      `SOAPAction ${quoteInput(unquoteAction(sent))} does not match the body's operation; expected "${expected}"`,
    );
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
      throw new EngineFault(
        'parameter',
        element !== undefined ? e.prepend(element).message : e.message,
      );
    throw e;
  }
}

export async function handleHttp(
  p: Pipeline,
  req: ServiceRequest,
  op: AnyOperationDef,
  binding: BindingDef,
  url: URL,
  ns: string,
  log: Log,
): Promise<ServiceResponse> {
  checkBody(p, req);
  let form = url.searchParams;
  if (binding.requestContentType !== null) {
    // Parameters travel in the body, form-encoded (the spec's validate allows nothing else).
    const want = requestMediaType(p.options.wire, binding.requestContentType).type;
    const { type } = requestMediaType(p.options.wire, req.headers['content-type']);
    if (type !== want)
      throw invalid(`content type must be ${want}, got ${type ? quoteInput(type) : 'none'}`, 415);
    form = new URLSearchParams(new TextDecoder().decode(req.body));
    for (const name of url.searchParams.keys())
      if (form.has(name))
        throw invalid(`duplicate parameter ${cutInput(name)}: in the query and the body`);
  }
  const names = new Set<string>();
  for (const name of form.keys()) {
    if (names.has(name)) throw invalid(`duplicate parameter ${cutInput(name)}`);
    names.add(name);
  }
  const h = p.options.auth.httpHeaders;
  const credentialNames = new Set([h.apiKey, h.timestamp, h.signature].map((n) => n.toLowerCase()));
  for (const name of new Set([...form.keys(), ...url.searchParams.keys()])) {
    if (credentialNames.has(name.toLowerCase()))
      throw invalid(
        `credentials must travel as the HTTP headers ${h.apiKey}, ${h.timestamp} and ${h.signature}, never as the parameter ${quoteInput(name)}`,
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
    binding: binding.id,
  });
  const out = new XmlWriter();
  op.encodeHttpResponse(result, ns, out);
  return {
    status: 200,
    headers: { 'content-type': binding.responseContentType },
    body: out.content(),
  };
}
