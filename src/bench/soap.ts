// The SOAP 1.1 requests the bench sends: one template per operation, with __TIMESTAMP__,
// __SIGNATURE__ and __APIKEY__ for the load generators to fill in (wrk per request, from
// pre-signed lists), and the same template signed here for single calls.
import { createHmac } from 'node:crypto';
import type { Key } from './load.js';

export function soapTemplate(ns: string, operation: string, params: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header><AuthenticationHeader xmlns="${ns}"><Timestamp>__TIMESTAMP__</Timestamp><Operation>${operation}</Operation><Signature>__SIGNATURE__</Signature><APIKey>__APIKEY__</APIKey></AuthenticationHeader></soap:Header><soap:Body><${operation} xmlns="${ns}">${params}</${operation}></soap:Body></soap:Envelope>`;
}

export const soapHeaders = (ns: string, operation: string): Record<string, string> => ({
  'content-type': 'text/xml; charset=utf-8',
  soapaction: `"${ns}${operation}"`,
});

/** The template signed by `key` at `timestamp` (the signature is HMAC-SHA1 of operation + timestamp). */
export function signTemplate(template: string, operation: string, key: Key, timestamp: string) {
  const signature = createHmac('sha1', key.secretKey)
    .update(operation + timestamp)
    .digest('base64');
  return template
    .replace('__TIMESTAMP__', timestamp)
    .replace('__SIGNATURE__', signature)
    .replace('__APIKEY__', key.apiKey);
}
