// The wire facts of one service as tables its generated package hands the engines (as protobuf-ts
// hands its runtime a MessageInfo): endpoint and namespace, bindings, fault codes. The engines
// know SOAP 1.1, SOAP 1.2 and HTTP forms in general, and nothing of a particular service.
import type { SoapVersion } from '../xml/index.js';
import { mediaType } from './binding.js';

export interface BindingDef {
  /** What clients choose the binding by: its id in the spec. */
  readonly id: string;
  readonly title: string;
  readonly kind: 'soap' | 'http';
  /** SOAP bindings: the envelope version. */
  readonly soapVersion: SoapVersion | null;
  readonly method: 'GET' | 'POST';
  /** `{endpoint}`, and for HTTP bindings `{Operation}`. */
  readonly path: string;
  readonly requestContentType: string | null;
  readonly responseContentType: string;
  /** `{soap_namespace}` and `{Operation}`: the SOAPAction header (1.1) or the action parameter (1.2). */
  readonly soapAction: string | null;
}

/**
 * The situations in which the engine raises a fault itself; the fault table names each one's code.
 * `notImplemented`: a server created with some handlers only was called for another operation.
 */
export type FaultRole = 'authentication' | 'request' | 'parameter' | 'notImplemented' | 'internal';

/**
 * The code of each situation. notImplemented is optional: a service whose spec names no code for
 * it (one from before the role) serves complete handlers only, and `partial` is refused.
 */
export type RaisedFor = Readonly<Record<Exclude<FaultRole, 'notImplemented'>, string>> & {
  readonly notImplemented?: string;
};

export interface FaultDef {
  readonly code: string;
  /** faultcode (SOAP 1.1) and Code/Value (SOAP 1.2), e.g. `soap:Client`. */
  readonly soap11: string;
  readonly soap12: string;
  /** HTTP status of a SOAP 1.1 and of a SOAP 1.2 fault with this code. */
  readonly soap11Status: number;
  readonly soap12Status: number;
  /** HTTP GET/POST statuses: the first is the default; the engine may choose another listed one. */
  readonly httpStatuses: readonly number[];
  /** The only message this code carries on the wire (the original goes to the log only). */
  readonly message: string | null;
  /** The Retry-After header (seconds) of every answer with this code, on every binding. */
  readonly retryAfterSeconds: number | null;
}

export interface FaultTable {
  /** The element in the fault detail (in {soap_namespace}) holding the code. */
  readonly detailElement: string;
  /** Of HTTP GET/POST faults, whose body is `<Code>: <message>`. */
  readonly httpContentType: string;
  /** Statuses about the HTTP exchange that a SOAP fault keeps when a thrower picks one. */
  readonly transportStatuses: readonly number[];
  readonly codes: readonly FaultDef[];
  readonly raisedFor: RaisedFor;
}

export interface WireSpec {
  /** `{endpoint}` is the base URL followed by this path. */
  readonly endpointPath: string;
  /** {soap_namespace}: `scheme://` + the base URL's host + `path`. */
  readonly namespace: { readonly scheme: string; readonly path: string };
  readonly wsdlContentType: string;
  /** In the spec's order; the first is the client's default. */
  readonly bindings: readonly BindingDef[];
  readonly faults: FaultTable;
}

/** A template with its `{placeholders}` replaced; an unknown placeholder is left as written. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (m, key: string) => values[key] ?? m);
}

/** {soap_namespace} of a base URL: its host with the rule's scheme, followed by the rule's path. */
export function namespaceFor(baseUrl: string, rule: WireSpec['namespace']): string {
  const host = baseUrl.replace(/\/+$/, '').replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return `${rule.scheme}://${host}${rule.path}`;
}

// A Host header ends up in the namespace and the WSDL: only a plain host[:port] is used.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
export const isPlainHost = (host: string): boolean => HOST.test(host);

/** Whether `ns` is the namespace rule applied to some plain host (`{scheme}://{host}{path}`). */
export function isNamespaceOfAnyHost(ns: string, rule: WireSpec['namespace']): boolean {
  const head = `${rule.scheme}://`;
  if (!ns.startsWith(head) || !ns.endsWith(rule.path)) return false;
  return isPlainHost(ns.slice(head.length, ns.length - rule.path.length));
}

/** The binding with this id; an unknown id is a programming error naming the known ones. */
export function bindingById(wire: WireSpec, id: string): BindingDef {
  const b = wire.bindings.find((x) => x.id === id);
  if (!b)
    throw new TypeError(
      `unknown binding "${id}"; this service has ${wire.bindings.map((x) => x.id).join(', ')}`,
    );
  return b;
}

type SoapByPath = ReadonlyMap<string, ReadonlyMap<string, BindingDef>>;
const soapTables = new WeakMap<WireSpec, SoapByPath>();

/**
 * The SOAP bindings by path, then by the media type of their requestContentType (what tells SOAP
 * bindings that share a path apart); built once per table, as the engine and callers share it.
 */
export function soapBindingsByPath(wire: WireSpec): SoapByPath {
  let table = soapTables.get(wire);
  if (table) return table;
  const byPath = new Map<string, Map<string, BindingDef>>();
  for (const b of wire.bindings) {
    if (b.kind !== 'soap') continue;
    const path = fill(b.path, { endpoint: wire.endpointPath });
    const byType = byPath.get(path) ?? new Map<string, BindingDef>();
    byType.set(mediaType(b.requestContentType ?? '').type, b);
    byPath.set(path, byType);
  }
  soapTables.set(wire, (table = byPath));
  return table;
}

type KnownTypes = ReadonlyMap<string, Readonly<ReturnType<typeof mediaType>>>;
const knownTypeTables = new WeakMap<WireSpec, KnownTypes>();

/**
 * `mediaType` of a request's Content-Type. The exact Content-Type a binding sends is what nearly
 * every client sends: that one is looked up, parsed once per table, not parsed again.
 */
export function requestMediaType(
  wire: WireSpec,
  header: string | undefined,
): Readonly<ReturnType<typeof mediaType>> {
  let known = knownTypeTables.get(wire);
  if (!known) {
    const sent = wire.bindings.flatMap((b) => b.requestContentType ?? []);
    known = new Map(sent.map((t) => [t, Object.freeze(mediaType(t))] as const));
    knownTypeTables.set(wire, known);
  }
  return (header !== undefined && known.get(header)) || mediaType(header);
}

/** The SOAP binding a POST to `path` with this Content-Type is in, if any. */
export const soapBindingAt = (
  wire: WireSpec,
  path: string,
  contentType: string | undefined,
): BindingDef | undefined =>
  soapBindingsByPath(wire).get(path)?.get(requestMediaType(wire, contentType).type);

/**
 * The SOAPAction as a request sent it, where its binding carries it: SOAP 1.1 in the SOAPAction
 * header, SOAP 1.2 in the Content-Type's action parameter (quoted or not). Quotes are kept.
 */
export function sentSoapAction(
  binding: BindingDef,
  headers: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (binding.soapVersion === '1.1') return headers.soapaction;
  const m = /;\s*action\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(headers['content-type'] ?? '');
  return m ? (m[2] ?? m[1]) : undefined;
}

/** A SOAPAction without the quotes around it, which do not count. */
export function unquoteAction(s: string): string {
  const t = s.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

/** Each HTTP binding path's text before and after `{Operation}`; built once per table. */
const httpPathTables = new WeakMap<WireSpec, readonly (readonly [string, string])[]>();
function httpPathParts(wire: WireSpec): readonly (readonly [string, string])[] {
  let parts = httpPathTables.get(wire);
  if (parts) return parts;
  parts = wire.bindings
    .filter((b) => b.kind === 'http')
    .map((b) => {
      const [prefix = '', suffix = ''] = fill(b.path, { endpoint: wire.endpointPath }).split(
        '{Operation}',
      );
      return [prefix, suffix] as const;
    });
  httpPathTables.set(wire, parts);
  return parts;
}

/**
 * The operation a request path names in an HTTP binding's path (`{endpoint}/{Operation}`, say), if
 * the path is one of theirs; its query, if any, is not part of it.
 */
export function httpOperationAt(wire: WireSpec, url: string): string | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  for (const [prefix, suffix] of httpPathParts(wire))
    if (
      path.length > prefix.length + suffix.length &&
      path.startsWith(prefix) &&
      path.endsWith(suffix)
    )
      return path.slice(prefix.length, path.length - suffix.length);
  return undefined;
}
