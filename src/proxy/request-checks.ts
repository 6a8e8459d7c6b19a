// The checks of a request: its binding, operation, SOAPAction, content type, namespace, every
// parameter (decoded with the generated decoders), the credentials (fields, Timestamp format,
// clock offset, Operation, signature when a secret is known, replays). Each names its check and
// the family of the conformance model that gives its level and source (on an HTTP binding the
// credentials are a gap decision); the first reason a faithful server refuses the request for is
// one of the conformance refusals (REFUSALS), which judges the answer.
import {
  XmlDecodeError,
  XmlParseError,
  type AuthValues,
  type BindingDef,
  type CheckFamily,
  type XmlDocument,
} from '@evgen/runtime';
import {
  NO_ELEMENT,
  fill,
  mediaType,
  parseTimestamp,
  readSoapEnvelope,
  readXml,
  sentSoapAction,
  sourceName,
  unquoteAction,
  type RefusalKind,
} from '@evgen/runtime/internal';
import type { Finding } from './finding.js';
import type { Route } from './routes.js';
import { explainSignature, offsetText } from './signature.js';
import type { SecretLookup } from './secrets.js';
import type { Level, ServiceTables } from './tables.js';
import type { TimestampMemory } from './timestamps.js';

/** The request checks and the family of the conformance model each belongs to. */
export const REQUEST_CHECKS = {
  binding: 'responses',
  'content type': 'responses',
  envelope: 'wellFormed',
  operation: 'responses',
  namespace: 'responses',
  SOAPAction: 'responses',
  parameters: 'responses',
  AuthenticationHeader: 'authentication',
  'credential headers': 'httpCredentials',
  'Timestamp format': 'authentication',
  'Operation header': 'authentication',
  signature: 'authentication',
  'clock offset': 'timestampWindow',
  replay: 'timestampWindow',
} as const satisfies Record<string, CheckFamily>;
export type RequestCheck = keyof typeof REQUEST_CHECKS;

export interface SeenRequest {
  readonly method: string;
  /** Path and query as the client sent them. */
  readonly url: string;
  /** Lower-case names; a repeated field joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Undefined when longer than the proxy checks (forwarded all the same). */
  readonly body: Uint8Array | undefined;
  /** The proxy's clock when the request arrived (ms). */
  readonly at: number;
}

export interface RequestContext {
  readonly tables: ServiceTables;
  readonly level: Level;
  /** The namespaces a request may be in (the target's, the one of the Host it is sent with). */
  readonly namespaces: readonly string[];
  readonly secrets: SecretLookup | undefined;
  readonly timestamps: TimestampMemory;
}

export interface RequestVerdict {
  readonly operation: string;
  readonly findings: Finding[];
  /** The namespace the answer must be in: the request's own when it may be used. */
  readonly ns: string;
  /** Why a faithful server refuses it (the first reason, in the server's order), if it does. */
  readonly refusal: RefusalKind | undefined;
  readonly credentials: Partial<AuthValues> | undefined;
  /** The request's Timestamp minus the proxy's clock, when readable (ms). */
  readonly offsetMs: number | undefined;
  /** verified or failed with a known secret; unverified without one. */
  readonly signature: 'verified' | 'failed' | 'unverified' | undefined;
}

interface At {
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  /** The sentence, when not `<path>: expected <expected>, got <found>`. */
  readonly message?: string;
}

/** Collects a request's findings (those its level reports) and its first refusal. */
class Verdict {
  readonly findings: Finding[] = [];
  refusal: RefusalKind | undefined;
  ns: string;
  credentials: Partial<AuthValues> | undefined;
  offsetMs: number | undefined;
  signature: RequestVerdict['signature'];

  constructor(
    private readonly x: RequestContext,
    readonly binding: string,
    public operation: string,
    /** Credentials on an HTTP binding are a gap decision (http-credentials). */
    private readonly http = false,
  ) {
    this.ns = x.namespaces[0]!;
  }

  add(check: RequestCheck, at: At, refusal?: RefusalKind): void {
    this.refusal ??= refusal;
    const family = REQUEST_CHECKS[check];
    const k =
      this.x.tables.model.checks[
        this.http && family === 'authentication' ? 'httpCredentials' : family
      ];
    if (this.x.level === 'document' && k.level !== 'document') return;
    const where = at.path ? `${at.path}: ` : '';
    this.findings.push({
      direction: 'request',
      binding: this.binding,
      operation: this.operation,
      check,
      level: k.level,
      source: sourceName(k.level, k.source),
      path: at.path,
      expected: at.expected,
      found: at.found,
      message: at.message ?? `${where}expected ${at.expected}, got ${at.found}`,
    });
  }

  done(): RequestVerdict {
    return {
      operation: this.operation,
      findings: this.findings,
      ns: this.ns,
      refusal: this.refusal,
      credentials: this.credentials,
      offsetMs: this.offsetMs,
      signature: this.signature,
    };
  }
}

const show = (s: string | undefined) => (s === undefined ? 'nothing' : JSON.stringify(s));

export async function checkRequest(
  x: RequestContext,
  route: Route,
  req: SeenRequest,
): Promise<RequestVerdict> {
  if (route.kind === 'stray') {
    const v = new Verdict(x, '-', '-');
    v.add('binding', { path: '', expected: route.expected, found: route.found }, 'badRequest');
    return v.done();
  }
  if (route.kind === 'soap') return checkSoap(x, route.binding, req);
  if (route.kind === 'http') return checkHttp(x, route.binding, route.operation, req);
  return new Verdict(x, route.kind === 'wsdl' ? 'wsdl' : '-', '-').done();
}

async function checkSoap(
  x: RequestContext,
  binding: BindingDef,
  req: SeenRequest,
): Promise<RequestVerdict> {
  const v = new Verdict(x, binding.id, '-');
  const type = req.headers['content-type'];
  if (!mediaType(type).utf8)
    v.add(
      'content type',
      { path: '', expected: JSON.stringify(binding.requestContentType), found: show(type) },
      'badRequest',
    );
  if (req.body === undefined) return v.done();
  let d: XmlDocument;
  let envelope;
  try {
    d = readXml(req.body);
    envelope = readSoapEnvelope(d);
  } catch (e) {
    if (!(e instanceof XmlParseError || e instanceof XmlDecodeError)) throw e;
    const message = `not a SOAP envelope: ${e.message}`;
    v.add('envelope', { path: '', expected: 'a SOAP envelope', found: e.message, message });
    v.refusal ??= 'malformed';
    return v.done();
  }
  if (envelope.version !== binding.soapVersion)
    v.add(
      'envelope',
      {
        path: 'Envelope',
        expected: `a SOAP ${binding.soapVersion} envelope (${binding.title})`,
        found: `a SOAP ${envelope.version} envelope`,
      },
      'malformed',
    );
  if (envelope.payload === NO_ELEMENT) {
    v.add(
      'operation',
      { path: 'Body', expected: 'an operation element', found: 'nothing' },
      'malformed',
    );
    return v.done();
  }
  const name = d.name(envelope.payload);
  const sent = d.ns(envelope.payload);
  v.operation = name;
  const op = x.tables.operations[name];
  if (!op) {
    v.add(
      'operation',
      {
        path: `Body/${name}`,
        expected: 'an operation of the interface',
        found: JSON.stringify(name),
      },
      'unknownOperation',
    );
    return v.done();
  }
  if (x.namespaces.includes(sent)) v.ns = sent;
  else
    v.add(
      'namespace',
      { path: name, expected: x.namespaces.join(' or '), found: sent || '(none)' },
      'unknownOperation',
    );
  checkAction(v, binding, req, name);
  const headerName = x.tables.auth.headerElement;
  const header =
    envelope.header === NO_ELEMENT
      ? undefined
      : d.children(envelope.header).find((c) => d.name(c) === headerName && d.ns(c) === sent);
  if (header === undefined)
    v.add(
      'AuthenticationHeader',
      { path: `Header/${headerName}`, expected: `${headerName} in ${sent}`, found: 'nothing' },
      'noCredentials',
    );
  else {
    const values = decoded(v, 'AuthenticationHeader', 'noCredentials', headerName, () =>
      x.tables.auth.decodeHeader(d, header),
    );
    if (values) await checkCredentials(x, v, values, name, req.at, headerName);
  }
  decoded(v, 'parameters', 'invalidParameter', name, (): unknown =>
    op.decodeSoapRequest(d, envelope.payload, sent),
  );
  return v.done();
}

/** The binding's SOAPAction rule (SOAP 1.1: the header, required; 1.2: the action parameter, optional). */
function checkAction(v: Verdict, binding: BindingDef, req: SeenRequest, operation: string): void {
  if (binding.soapAction === null) return;
  const expected = unquoteAction(
    fill(binding.soapAction, { soap_namespace: v.ns, Operation: operation }),
  );
  const sent = sentSoapAction(binding, req.headers);
  const where = binding.soapVersion === '1.1' ? 'SOAPAction header' : 'Content-Type action';
  if (sent === undefined) {
    if (binding.soapVersion === '1.1')
      v.add(
        'SOAPAction',
        { path: where, expected: JSON.stringify(expected), found: 'nothing' },
        'soapAction',
      );
    return;
  }
  if (unquoteAction(sent) !== expected)
    v.add(
      'SOAPAction',
      {
        path: where,
        expected: JSON.stringify(expected),
        found: JSON.stringify(unquoteAction(sent)),
      },
      'soapAction',
    );
}

async function checkHttp(
  x: RequestContext,
  binding: BindingDef,
  name: string,
  req: SeenRequest,
): Promise<RequestVerdict> {
  const v = new Verdict(x, binding.id, name, true);
  const op = x.tables.operations[name];
  if (!op) {
    v.add(
      'operation',
      { path: '', expected: 'an operation of the interface', found: JSON.stringify(name) },
      'unknownOperation',
    );
    return v.done();
  }
  const query = new URLSearchParams(
    req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
  );
  let form = query;
  if (binding.requestContentType !== null) {
    const want = mediaType(binding.requestContentType).type;
    const type = req.headers['content-type'];
    if (mediaType(type).type !== want)
      v.add(
        'content type',
        { path: '', expected: JSON.stringify(want), found: show(type) },
        'badRequest',
      );
    if (req.body === undefined) return v.done();
    form = new URLSearchParams(new TextDecoder().decode(req.body));
  }
  const h = x.tables.auth.httpHeaders;
  const credentialNames = new Set([h.apiKey, h.timestamp, h.signature].map((n) => n.toLowerCase()));
  for (const [where, params] of [
    ['query', query],
    ['form body', form],
  ] as const)
    for (const key of new Set(params.keys()))
      if (credentialNames.has(key.toLowerCase()) && (where === 'query' || params !== query))
        v.add(
          'credential headers',
          {
            path: `${where} parameter ${key}`,
            expected: `the HTTP headers ${h.apiKey}, ${h.timestamp} and ${h.signature}`,
            found: `${key} in the ${where}`,
          },
          'credentialsInQuery',
        );
  const header = (n: string) => req.headers[n.toLowerCase()];
  const values = {
    APIKey: header(h.apiKey),
    Timestamp: header(h.timestamp),
    Signature: header(h.signature),
    Operation: header(h.operation) ?? name,
  };
  const field = { APIKey: h.apiKey, Timestamp: h.timestamp, Signature: h.signature };
  const missing = (['APIKey', 'Timestamp', 'Signature'] as const).filter((k) => !values[k]);
  if (missing.length) {
    v.credentials = values;
    v.add(
      'credential headers',
      {
        path: missing.map((k) => `header ${field[k]}`).join(', '),
        expected: `the HTTP headers ${h.apiKey}, ${h.timestamp} and ${h.signature}`,
        found: `no ${missing.join(', ')}`,
      },
      'noCredentials',
    );
  } else await checkCredentials(x, v, values as AuthValues, name, req.at, 'header');
  decoded(v, 'parameters', 'invalidParameter', undefined, (): unknown =>
    op.decodeHttpRequest(form),
  );
  return v.done();
}

/**
 * What a generated decoder makes of the request; when it refuses, undefined and a finding of
 * `check` at the decoder's path (below `root`), refused as `refusal`.
 */
function decoded<T>(
  v: Verdict,
  check: RequestCheck,
  refusal: RefusalKind,
  root: string | undefined,
  decode: () => T,
): T | undefined {
  try {
    return decode();
  } catch (e) {
    if (!(e instanceof XmlDecodeError)) throw e;
    if (root !== undefined) e.prepend(root);
    v.add(check, { path: e.path, expected: e.expected, found: show(e.got) }, refusal);
    return undefined;
  }
}

/**
 * Timestamp format, clock offset, Operation, signature (when a secret is known) and replay, in
 * the order a faithful server refuses them; `where`: the header element, or `header` for HTTP.
 */
async function checkCredentials(
  x: RequestContext,
  v: Verdict,
  values: AuthValues,
  operation: string,
  now: number,
  where: string,
): Promise<void> {
  v.credentials = values;
  const path = (field: string) => (where === 'header' ? `header ${field}` : `${where}/${field}`);
  const at = parseTimestamp(values.Timestamp);
  if (at === undefined)
    v.add(
      'Timestamp format',
      {
        path: path('Timestamp'),
        expected: `a UTC time formatted ${x.tables.timestampFormat}`,
        found: JSON.stringify(values.Timestamp),
      },
      'malformedTimestamp',
    );
  else {
    v.offsetMs = at - now;
    const skew = x.tables.clockSkewSeconds * 1000;
    if (Math.abs(v.offsetMs) > skew)
      v.add(
        'clock offset',
        {
          path: path('Timestamp'),
          expected: `within ±${x.tables.clockSkewSeconds} s of the proxy's clock`,
          found: `${offsetText(v.offsetMs)} (${values.Timestamp})`,
        },
        v.offsetMs < 0 ? 'staleTimestamp' : 'futureTimestamp',
      );
  }
  if (values.Operation !== operation)
    v.add(
      'Operation header',
      {
        path: path('Operation'),
        expected: JSON.stringify(operation),
        found: JSON.stringify(values.Operation),
      },
      'operationHeader',
    );
  const secret = await x.secrets?.(values.APIKey);
  if (secret === undefined) v.signature = 'unverified';
  else {
    const why = explainSignature(secret, values, operation, v.offsetMs);
    v.signature = why ? 'failed' : 'verified';
    if (why)
      v.add(
        'signature',
        {
          path: path('Signature'),
          expected: `HMAC-SHA1 of ${JSON.stringify(values.Operation + values.Timestamp)} with the secret of ${values.APIKey}`,
          found: 'a signature that does not match (not shown)',
          message: why,
        },
        'wrongSignature',
      );
  }
  if (at !== undefined && x.timestamps.repeated(values, at))
    v.add(
      'replay',
      {
        path: path('Timestamp'),
        expected: `a Timestamp not sent before by this API key for ${values.Operation}`,
        found: `${values.Timestamp} again`,
      },
      'replay',
    );
}
