// The four bindings, the OperationDef that generated code provides, and address rules.
import type { XmlDocument, XmlWriter } from '../xml/index.js';

export type Binding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';
export const BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'httpGet', 'httpPost'];

export interface OperationDef<P, R> {
  readonly name: string;
  readonly method: string;
  readonly mutating: boolean;
  readonly hasResult: boolean;
  readonly paramNames: readonly string[];
  /** Parameters from the operation element `el` of a SOAP request. */
  decodeSoapRequest(d: XmlDocument, el: number, ns: string): P;
  encodeSoapRequest(params: P, ns: string): string;
  decodeHttpRequest(form: URLSearchParams): P;
  encodeHttpRequest(params: P): URLSearchParams;
  /** Writes the `<Operation>Response` element. */
  encodeSoapResponse(result: R, ns: string, out: XmlWriter): void;
  /** The result from the `<Operation>Response` element `el` of a SOAP response. */
  decodeSoapResponse(d: XmlDocument, el: number, ns: string): R;
  /** Writes the whole HTTP GET/POST response document (nothing when the operation has no result). */
  encodeHttpResponse(result: R, ns: string, out: XmlWriter): void;
  /** The result from an HTTP GET/POST response document (undefined: the body was empty). */
  decodeHttpResponse(d: XmlDocument | undefined, ns: string): R;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperationDef = OperationDef<any, any>;
export type OperationTable = Readonly<Record<string, AnyOperationDef>>;

export const CONTENT_TYPES = {
  soap11: 'text/xml; charset=utf-8',
  soap12: 'application/soap+xml; charset=utf-8',
  form: 'application/x-www-form-urlencoded',
  xml: 'text/xml; charset=utf-8',
} as const;

/** `/API/1_0/SOAP/` from `/API/1_0/SOAP/ServiceAPI.asmx`. */
export const namespacePath = (endpointPath: string): string =>
  endpointPath.slice(0, endpointPath.lastIndexOf('/') + 1);

// A Host header ends up in the namespace and the WSDL: only a plain host[:port] is used.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
export const isPlainHost = (host: string): boolean => HOST.test(host);

/** Whether `ns` is {soap_namespace} for some plain host: `https://{host}{namespace path}`. */
export function isNamespaceOfAnyHost(ns: string, nsPath: string): boolean {
  if (!ns.startsWith('https://') || !ns.endsWith(nsPath)) return false;
  return isPlainHost(ns.slice('https://'.length, ns.length - nsPath.length));
}

/** {soap_namespace}: the base URL (scheme replaced by https) followed by the version path. */
export function namespaceFor(baseUrl: string, endpointPath: string): string {
  const base = baseUrl.replace(/\/+$/, '').replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return `https://${base}${namespacePath(endpointPath)}`;
}

const COMMON_TYPES: ReadonlyMap<string, { type: string; utf8: boolean }> = new Map([
  [CONTENT_TYPES.soap11, { type: 'text/xml', utf8: true }],
  [CONTENT_TYPES.soap12, { type: 'application/soap+xml', utf8: true }],
  [CONTENT_TYPES.form, { type: CONTENT_TYPES.form, utf8: true }],
]);

/** Parsed `Content-Type`: the lower-case media type, and whether the charset (if any) is UTF-8. */
export function mediaType(header: string | undefined): { type: string; utf8: boolean } {
  const common = header === undefined ? undefined : COMMON_TYPES.get(header);
  if (common !== undefined) return common; // what nearly every client sends, exactly
  const [type = '', ...params] = (header ?? '').split(';');
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(p)?.[1])
    .find((c) => c !== undefined);
  return {
    type: type.trim().toLowerCase(),
    utf8: charset === undefined || /^utf-?8$/i.test(charset),
  };
}
