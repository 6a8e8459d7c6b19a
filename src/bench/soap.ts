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

/** Timestamps each later than the last: the server refuses a repeated one as a replay. */
export function increasingTimestamps(): () => string {
  let last = 0;
  return () => new Date((last = Math.max(last + 1, Date.now()))).toISOString();
}

/** The AuthenticationHeader's Signature: HMAC-SHA1 of operation + timestamp, base64. */
export const signature = (operation: string, timestamp: string, key: Key): string =>
  createHmac('sha1', key.secretKey)
    .update(operation + timestamp)
    .digest('base64');

/** The template signed by `key` at `timestamp`. */
export function signTemplate(template: string, operation: string, key: Key, timestamp: string) {
  return template
    .replace('__TIMESTAMP__', timestamp)
    .replace('__SIGNATURE__', signature(operation, timestamp, key))
    .replace('__APIKEY__', key.apiKey);
}
