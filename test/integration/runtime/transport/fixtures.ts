// Hand-written stand-ins for what evgen generates: an AuthScheme, an `Echo` read operation (int +
// string in, the same out), a `Forget` mutating operation with no result, and a server on
// 127.0.0.1 with spy handlers plus raw signed requests for what a real client never sends. The
// wire tables (bindings, fault codes) are the spec's, from the generated package.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  XmlDecodeError,
  listen,
  type AuthScheme,
  type OperationDef,
  type RunningServer,
  type ServiceHandlerOptions,
  type XmlDocument,
} from '@evgen/runtime';
import {
  createServiceHandler,
  escapeText,
  missingElement,
  readInt,
  readString,
} from '@evgen/runtime/internal';
import { SERVICE, WIRE } from '@evgen/event-management/service';

import {
  ENDPOINT,
  authHeaderXml,
  send,
  soapEnvelope,
  soapNamespaceOf,
  type AuthFields,
  type SoapVersion,
} from '../../../support/requests.js';
import { lookupTestKey } from '../../../support/stub.js';

export * from '../../../support/requests.js';

const child = (d: XmlDocument, el: number, ns: string, name: string): number => {
  const c = d.children(el).find((x) => d.name(x) === name && d.ns(x) === ns);
  if (c === undefined) throw missingElement(name);
  return c;
};
const el = (name: string, ns: string, content: string) =>
  `<${name} xmlns="${ns}">${content}</${name}>`;

export const fakeAuth: AuthScheme = {
  headerElement: 'AuthenticationHeader',
  encodeHeader: (v, ns) =>
    el(
      'AuthenticationHeader',
      ns,
      (['Timestamp', 'Operation', 'Signature', 'APIKey'] as const)
        .map((k) => `<${k}>${escapeText(v[k])}</${k}>`)
        .join(''),
    ),
  decodeHeader: (d, h) => ({
    Timestamp: readString(d, child(d, h, d.ns(h), 'Timestamp')),
    Operation: readString(d, child(d, h, d.ns(h), 'Operation')),
    Signature: readString(d, child(d, h, d.ns(h), 'Signature')),
    APIKey: readString(d, child(d, h, d.ns(h), 'APIKey')),
  }),
  httpHeaders: {
    apiKey: 'APIKey',
    timestamp: 'Timestamp',
    signature: 'Signature',
    operation: 'Operation',
  },
};

export interface EchoParams {
  count: number;
  text: string;
}

const intParam = (form: URLSearchParams, name: string): number => {
  const raw = form.get(name);
  if (raw === null || !/^[+-]?\d+$/.test(raw))
    throw new XmlDecodeError(name, 'int', raw ?? undefined);
  return Number(raw);
};
const echoFields = (p: EchoParams) => `<count>${p.count}</count><text>${escapeText(p.text)}</text>`;
const readEcho = (d: XmlDocument, e: number, ns: string): EchoParams => ({
  count: readInt(d, child(d, e, ns, 'count')),
  text: readString(d, child(d, e, ns, 'text')),
});

export const Echo: OperationDef<EchoParams, EchoParams> = {
  name: 'Echo',
  method: 'echo',
  responseElement: 'EchoResponse',
  mutating: false,
  hasResult: true,
  paramNames: ['count', 'text'],
  decodeSoapRequest: readEcho,
  encodeSoapRequest: (p, ns) => el('Echo', ns, echoFields(p)),
  decodeHttpRequest: (f) => ({ count: intParam(f, 'count'), text: f.get('text') ?? '' }),
  encodeHttpRequest: (p) => new URLSearchParams({ count: String(p.count), text: p.text }),
  encodeSoapResponse: (r, ns, out) =>
    out.write(el('EchoResponse', ns, el('EchoResult', ns, echoFields(r)))),
  decodeSoapResponse: (d, r, ns) => readEcho(d, child(d, r, ns, 'EchoResult'), ns),
  encodeHttpResponse: (r, ns, out) =>
    out.write(`<?xml version="1.0" encoding="utf-8"?>${el('EchoResult', ns, echoFields(r))}`),
  decodeHttpResponse: (d, ns) => {
    if (!d || d.name(0) !== 'EchoResult' || d.ns(0) !== ns)
      throw new XmlDecodeError('EchoResult', 'an EchoResult document', d?.name(0));
    return readEcho(d, 0, ns);
  },
};

export const Forget: OperationDef<{ ref: string }, void> = {
  name: 'Forget',
  method: 'forget',
  responseElement: 'ForgetResponse',
  mutating: true,
  hasResult: false,
  paramNames: ['ref'],
  decodeSoapRequest: (d, e, ns) => ({ ref: readString(d, child(d, e, ns, 'ref')) }),
  encodeSoapRequest: (p, ns) => el('Forget', ns, `<ref>${escapeText(p.ref)}</ref>`),
  decodeHttpRequest: (f) => ({ ref: f.get('ref') ?? '' }),
  encodeHttpRequest: (p) => new URLSearchParams({ ref: p.ref }),
  encodeSoapResponse: (_r, ns, out) => out.write(`<ForgetResponse xmlns="${ns}" />`),
  decodeSoapResponse: () => undefined,
  encodeHttpResponse: () => undefined,
  decodeHttpResponse: () => undefined,
};

export const operations = { Echo, Forget };

export interface Handlers {
  echo(p: EchoParams): EchoParams | Promise<EchoParams>;
  forget(p: { ref: string }): void | Promise<void>;
}

export interface Harness {
  readonly server: RunningServer;
  readonly url: string;
  /** {soap_namespace} as the server derives it from the Host header. */
  readonly ns: string;
  /** Handler methods called, in order. */
  readonly calls: string[];
  readonly logs: Parameters<NonNullable<ServiceHandlerOptions['onLog']>>[0][];
  /** What the server told the operator (onDiagnostic). */
  readonly diagnostics: string[];
}

export async function startServer(
  handlers: Partial<Handlers> = {},
  options: Partial<ServiceHandlerOptions> = {},
  maxBodyBytes?: number,
): Promise<Harness> {
  const calls: string[] = [];
  const logs: Harness['logs'] = [];
  const diagnostics: string[] = [];
  const impl: Handlers = { echo: (p) => p, forget: () => undefined, ...handlers };
  const spied = {
    echo: (p: EchoParams) => (calls.push('echo'), impl.echo(p)),
    forget: (p: { ref: string }) => (calls.push('forget'), impl.forget(p)),
  };
  const handler = createServiceHandler({
    operations,
    handlers: spied,
    auth: fakeAuth,
    wire: WIRE,
    clockSkewSeconds: SERVICE.clockSkewSeconds,
    lookupKey: lookupTestKey,
    wsdl: (address, ns) =>
      `<?xml version="1.0"?><definitions targetNamespace="${ns}"><address location="${address}"/></definitions>`,
    onLog: (e) => logs.push(e),
    onDiagnostic: (m) => diagnostics.push(m),
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
    ...options,
  });
  const server = await listen(handler, {
    host: '127.0.0.1',
    port: 0,
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
  });
  return {
    server,
    url: server.url,
    ns: soapNamespaceOf(server.url),
    calls,
    logs,
    diagnostics,
  };
}

export const echoBody = (ns: string, p: EchoParams = { count: 7, text: 'hi' }) =>
  Echo.encodeSoapRequest(p, ns);

/** Sends a raw SOAP 1.1 or 1.2 request for `op` with the given auth values (undefined = no header). */
export function sendSoap(
  h: Harness,
  version: SoapVersion,
  op: string,
  body: string,
  auth: Partial<AuthFields> | undefined,
  extraHeaders: Record<string, string> = {},
) {
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${h.ns}${op}"` }
      : { 'content-type': `application/soap+xml; charset=utf-8; action="${h.ns}${op}"` };
  return send(h.url + ENDPOINT, {
    method: 'POST',
    headers: { ...headers, ...extraHeaders },
    body: soapEnvelope(version, auth && authHeaderXml(h.ns, auth), body),
  });
}

/**
 * One echo server for a whole test file; `behaviour` (what Echo does) and the recorded calls are
 * reset before each test. Read `h` inside tests (it is set by beforeAll).
 */
export function echoServerPerFile() {
  const state = {
    h: undefined as unknown as Harness,
    behaviour: ((p) => p) as (p: EchoParams) => EchoParams | Promise<EchoParams>,
  };
  beforeAll(async () => {
    state.h = await startServer({ echo: (p) => state.behaviour(p) });
  });
  afterAll(() => state.h.server.close());
  beforeEach(() => {
    state.h.calls.length = 0;
    state.behaviour = (p) => p;
  });
  return state;
}
