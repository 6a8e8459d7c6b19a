// A generated server on 127.0.0.1 with spy handlers, and raw signed requests for each binding, for
// tests that need to send what the generated client never would.
import { createHmac } from 'node:crypto';
import { listen, type ListenOptions, type RunningServer, type ServiceHandlerOptions } from '@evgen/runtime';
import { createEventService, type ServiceHandlers } from '../../generated/src/server.js';

export const KEY = { apiKey: 'k-1', secret: 's3cret' };
export const ENDPOINT = '/API/1_0/SOAP/ServiceAPI.asmx';

export interface Harness {
  readonly server: RunningServer;
  readonly ns: string;
  /** Names of handler methods called, in order. */
  readonly calls: string[];
}

export async function startHarness(handlers: Partial<ServiceHandlers>, options: Partial<ServiceHandlerOptions> & ListenOptions = {}): Promise<Harness> {
  const calls: string[] = [];
  const spied = new Proxy(handlers, {
    get: (target, prop) => {
      const fn = (target as Record<string | symbol, unknown>)[prop];
      return typeof fn === 'function' ? (...args: unknown[]) => (calls.push(String(prop)), fn.apply(target, args)) : fn;
    },
  }) as ServiceHandlers;
  const service = createEventService(spied, { lookupKey: async (k) => (k === KEY.apiKey ? { secret: KEY.secret, name: 'test' } : undefined), ...options });
  const server = await listen(service, { host: '127.0.0.1', port: 0, ...options });
  return { server, ns: `https://${new URL(server.url).host}/API/1_0/SOAP/`, calls };
}

let tick = 0;
/** A fresh, valid timestamp (distinct per call, so no replay). */
export const freshTimestamp = (offsetMs = 0) => new Date(Date.now() + offsetMs + tick++).toISOString();
export const sign = (operation: string, timestamp: string, secret = KEY.secret) => createHmac('sha1', secret).update(operation + timestamp).digest('base64');

export interface AuthOverrides {
  Timestamp?: string;
  Operation?: string;
  Signature?: string;
  APIKey?: string;
}

export function authValues(operation: string, o: AuthOverrides = {}): Required<AuthOverrides> {
  const Timestamp = o.Timestamp ?? freshTimestamp();
  return { Timestamp, Operation: o.Operation ?? operation, Signature: o.Signature ?? sign(o.Operation ?? operation, Timestamp), APIKey: o.APIKey ?? KEY.apiKey };
}

export function soapRequest(version: '1.1' | '1.2', ns: string, operation: string, paramsXml: string, header: string | null): string {
  const env = version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
  return `<?xml version="1.0" encoding="utf-8"?><e:Envelope xmlns:e="${env}">${header === null ? '' : `<e:Header>${header}</e:Header>`}<e:Body><${operation} xmlns="${ns}">${paramsXml}</${operation}></e:Body></e:Envelope>`;
}

export function authHeaderXml(ns: string, v: Partial<Required<AuthOverrides>>): string {
  return `<AuthenticationHeader xmlns="${ns}">${Object.entries(v).map(([k, val]) => `<${k}>${val}</${k}>`).join('')}</AuthenticationHeader>`;
}

export async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url, { method: 'POST', body, headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
}
