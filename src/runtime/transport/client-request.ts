// One binding's HTTP request for an operation call, signed: the table's path, method, content
// types and SOAPAction rule, the AuthenticationHeader or the credential headers.
import { writeSoapEnvelope } from '../xml/index.js';
import { signRequest, type AuthScheme, type AuthValues } from './auth.js';
import type { OperationDef } from './binding.js';
import { type BindingDef, fill } from './wire.js';

export interface PreparedRequest {
  readonly url: string;
  readonly init: RequestInit;
}

export interface RequestSigner {
  readonly endpoint: string;
  readonly ns: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly auth: AuthScheme;
  readonly timestamp: string;
  /** Changes the signed values (conformance tests send deliberately wrong ones); undefined sends none. */
  readonly tamper?: (values: AuthValues) => AuthValues | undefined;
}

/** What a request needs of an operation: its name and its parameters' encoders. */
export type RequestOperation<P> = Pick<
  OperationDef<P, unknown>,
  'name' | 'encodeSoapRequest' | 'encodeHttpRequest'
>;

/**
 * The headers of a SOAP request for `operation` on `binding`: its request content type, and the
 * binding's SOAPAction rule as the SOAPAction header (SOAP 1.1) or the action parameter (1.2).
 */
export function soapRequestHeaders(
  binding: BindingDef,
  ns: string,
  operation: string,
): Record<string, string> {
  const type = binding.requestContentType ?? '';
  if (binding.soapAction === null) return { 'content-type': type };
  const action = fill(binding.soapAction, { soap_namespace: ns, Operation: operation });
  return binding.soapVersion === '1.1'
    ? { 'content-type': type, soapaction: action }
    : { 'content-type': `${type}; action="${action.replace(/^"(.*)"$/, '$1')}"` };
}

/**
 * One binding's HTTP request for an operation call, signed (the client and the conformance runner
 * share it). The parameters are encoded first, so a value the spec does not allow (undefined,
 * null where not nullable, a wrong type) throws an XmlEncodeError before anything is sent.
 */
export async function buildRequest<P>(
  s: RequestSigner,
  op: RequestOperation<P>,
  params: P,
  binding: BindingDef,
): Promise<PreparedRequest> {
  const url = fill(binding.path, { endpoint: s.endpoint, Operation: op.name });
  const soapBody = binding.kind === 'soap' ? op.encodeSoapRequest(params, s.ns) : undefined;
  const form = binding.kind === 'http' ? op.encodeHttpRequest(params).toString() : '';
  const signed = {
    Timestamp: s.timestamp,
    Operation: op.name,
    Signature: await signRequest(s.secretKey, op.name, s.timestamp),
    APIKey: s.apiKey,
  };
  const values = s.tamper ? s.tamper(signed) : signed;
  if (soapBody !== undefined) {
    const body = writeSoapEnvelope(
      binding.soapVersion ?? '1.1',
      values ? s.auth.encodeHeader(values, s.ns) : undefined,
      soapBody,
    );
    const headers = soapRequestHeaders(binding, s.ns, op.name);
    return { url, init: { method: binding.method, headers, body } };
  }
  const h = s.auth.httpHeaders;
  const headers: Record<string, string> = values
    ? {
        [h.apiKey]: values.APIKey,
        [h.timestamp]: values.Timestamp,
        [h.signature]: values.Signature,
        [h.operation]: values.Operation,
      }
    : {};
  if (binding.requestContentType === null)
    return { url: form ? `${url}?${form}` : url, init: { method: binding.method, headers } };
  return {
    url,
    init: {
      method: binding.method,
      headers: { ...headers, 'content-type': binding.requestContentType },
      body: form,
    },
  };
}
