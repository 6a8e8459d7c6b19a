// One signed HTTP request for an operation call in any binding, shared by the client engine and the
// conformance runner.
import { writeSoapEnvelope } from '../xml/index.js';
import { signRequest, type AuthScheme, type AuthValues } from './auth.js';
import { type Binding, CONTENT_TYPES, type OperationDef } from './binding.js';

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

/** One binding's HTTP request for an operation call, signed (the client and the conformance runner share it). */
export async function buildRequest<P>(
  s: RequestSigner,
  op: OperationDef<P, unknown>,
  params: P,
  binding: Binding,
): Promise<PreparedRequest> {
  const signed = {
    Timestamp: s.timestamp,
    Operation: op.name,
    Signature: await signRequest(s.secretKey, op.name, s.timestamp),
    APIKey: s.apiKey,
  };
  const values = s.tamper ? s.tamper(signed) : signed;
  if (binding === 'soap11' || binding === 'soap12') {
    const body = writeSoapEnvelope(
      binding === 'soap11' ? '1.1' : '1.2',
      values ? s.auth.encodeHeader(values, s.ns) : undefined,
      op.encodeSoapRequest(params, s.ns),
    );
    const action = `${s.ns}${op.name}`;
    const headers: Record<string, string> =
      binding === 'soap11'
        ? { 'content-type': CONTENT_TYPES.soap11, soapaction: `"${action}"` }
        : { 'content-type': `${CONTENT_TYPES.soap12}; action="${action}"` };
    return { url: s.endpoint, init: { method: 'POST', headers, body } };
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
  const form = op.encodeHttpRequest(params).toString();
  if (binding === 'httpGet')
    return {
      url: `${s.endpoint}/${op.name}${form ? `?${form}` : ''}`,
      init: { method: 'GET', headers },
    };
  return {
    url: `${s.endpoint}/${op.name}`,
    init: {
      method: 'POST',
      headers: { ...headers, 'content-type': CONTENT_TYPES.form },
      body: form,
    },
  };
}
