// One place for what tests need to speak to a server by hand: the test key, the endpoint, fresh
// timestamps, signatures computed independently of the runtime (node:crypto), the
// AuthenticationHeader, SOAP envelopes and raw HTTP calls. Harnesses import from here.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';

export const ENDPOINT = '/API/1_0/SOAP/ServiceAPI.asmx';
export const KEY = { apiKey: 'k-1', secret: 's3cret', name: 'tester' };

export const SOAP_ENV = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
} as const;
export type SoapVersion = keyof typeof SOAP_ENV;

/** {soap_namespace} as a server on `url` derives it from the Host header. */
export const soapNamespaceOf = (url: string): string =>
  `https://${new URL(url).host}/API/1_0/SOAP/`;

let tick = 0;
/** A valid timestamp, distinct per call so tests never replay by accident. */
export const freshTimestamp = (offsetMs = 0): string =>
  new Date(Date.now() + offsetMs + tick++).toISOString();

/** The signature computed independently of the runtime, with node:crypto. */
export const sign = (operation: string, timestamp: string, secret = KEY.secret): string =>
  createHmac('sha1', Buffer.from(secret, 'utf8'))
    .update(operation + timestamp, 'utf8')
    .digest('base64');

export interface AuthFields {
  Timestamp: string;
  Operation: string;
  Signature: string;
  APIKey: string;
}

/**
 * Valid credentials for `operation` with overrides applied; an override set to undefined leaves
 * the field out. The signature covers the Operation (the operation's name when left out) and the
 * Timestamp, unless it is overridden itself.
 */
export function authValues(
  operation: string,
  over: Partial<Record<keyof AuthFields, string | undefined>> = {},
): Partial<AuthFields> {
  const Timestamp = 'Timestamp' in over ? over.Timestamp : freshTimestamp();
  const Operation = 'Operation' in over ? over.Operation : operation;
  const base: Partial<AuthFields> = {
    Timestamp,
    Operation,
    Signature: sign(Operation ?? operation, Timestamp ?? ''),
    APIKey: KEY.apiKey,
  };
  const out: Partial<AuthFields> = { ...base, ...over };
  for (const k of Object.keys(out) as (keyof AuthFields)[]) if (out[k] === undefined) delete out[k];
  return out;
}

const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The AuthenticationHeader element with the fields given, in the document's order. */
export function authHeaderXml(ns: string, v: Partial<AuthFields>): string {
  const parts = (['Timestamp', 'Operation', 'Signature', 'APIKey'] as const)
    .filter((k) => v[k] !== undefined)
    .map((k) => `<${k}>${escapeXml(v[k]!)}</${k}>`);
  return `<AuthenticationHeader xmlns="${ns}">${parts.join('')}</AuthenticationHeader>`;
}

/** A SOAP envelope; `header` undefined leaves the Header element out. */
export function soapEnvelope(
  version: SoapVersion,
  header: string | undefined,
  body: string,
): string {
  const h = header === undefined ? '' : `<s:Header>${header}</s:Header>`;
  return `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${SOAP_ENV[version]}">${h}<s:Body>${body}</s:Body></s:Envelope>`;
}

/** A SOAP request for `operation` with its parameters' XML; `header` null sends no Header. */
export function soapRequest(
  version: SoapVersion,
  ns: string,
  operation: string,
  paramsXml: string,
  header: string | null,
): string {
  return soapEnvelope(
    version,
    header ?? undefined,
    `<${operation} xmlns="${ns}">${paramsXml}</${operation}>`,
  );
}

export interface RawResponse {
  status: number;
  type: string;
  text: string;
  /** The response headers, where the caller had them (fetch does). */
  headers?: Headers;
}

export async function send(url: string, init: RequestInit): Promise<RawResponse> {
  const res = await fetch(url, init);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: await res.text(),
    headers: res.headers,
  };
}

export const post = (url: string, body: string, headers: Record<string, string>) =>
  send(url, { method: 'POST', body, headers });

/** The HTTP GET/POST credential headers for the fields present. */
export const credentialHeaders = (v: Partial<AuthFields>): Record<string, string> =>
  Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => e[1] !== undefined));

/** A request through node:http, because fetch will not send a Host header of our choosing. */
export function sendWithHost(
  url: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: init.method ?? 'GET',
        headers: { ...init.headers, host },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, type: res.headers['content-type'] ?? '', text }),
        );
      },
    );
    req.on('error', reject).end(init.body);
  });
}
