// The OperationDef that generated code provides per operation, and Content-Type parsing.
import type { XmlDocument, XmlWriter } from '../xml/index.js';

/** A binding id of the service (its WireSpec lists them). */
export type Binding = string;

/**
 * P: the parameters. R: the result as a server sends it (every field set). V: the result as a client
 * reads it, where a server may have left out a value it did not have (the generated
 * `<Operation>Received`); R by default.
 */
export interface OperationDef<P, R, V = R> {
  readonly name: string;
  readonly method: string;
  /** The SOAP Body element of a response, `<Operation>Response`. */
  readonly responseElement: string;
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
  decodeSoapResponse(d: XmlDocument, el: number, ns: string): V;
  /** Writes the whole HTTP GET/POST response document (nothing when the operation has no result). */
  encodeHttpResponse(result: R, ns: string, out: XmlWriter): void;
  /** The result from an HTTP GET/POST response document (undefined: the body was empty). */
  decodeHttpResponse(d: XmlDocument | undefined, ns: string): V;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperationDef = OperationDef<any, any, any>;
export type OperationTable = Readonly<Record<string, AnyOperationDef>>;

/** Parsed `Content-Type`: the lower-case media type, and whether the charset (if any) is UTF-8. */
export function mediaType(header: string | undefined): { type: string; utf8: boolean } {
  const [type = '', ...params] = (header ?? '').split(';');
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(p)?.[1])
    .find((c) => c !== undefined);
  return {
    type: type.trim().toLowerCase(),
    utf8: charset === undefined || /^utf-?8$/i.test(charset),
  };
}
