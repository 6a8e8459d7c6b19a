// A proxy in front of a target, with the findings it reports, and traffic of the generated
// client's engine through it: every operation a target implements, on every binding.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type AuthValues, type ClientOptions } from '@evgen/runtime';
import {
  buildRequest,
  createTransport,
  signRequest,
  type RawAnswer,
} from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import type { Finding } from '../../../src/proxy/finding.js';
import { GENERATED_TABLES } from '../../../src/proxy/generated-tables.js';
import { startProxy, type ProxyOptions, type RunningProxy } from '../../../src/proxy/proxy.js';

export interface Watched {
  readonly proxy: RunningProxy;
  /** Every new distinct finding, in the order seen. */
  readonly findings: Finding[];
}

export async function watch(
  target: string,
  o: Omit<ProxyOptions, 'target' | 'tables'> = {},
): Promise<Watched> {
  const findings: Finding[] = [];
  const proxy = await startProxy({
    target,
    tables: GENERATED_TABLES,
    ...o,
    onFinding: (f) => findings.push(f),
  });
  return { proxy, findings };
}

export type Params = Record<string, string | number | boolean>;

/** The parameters of `operation` from discovered values, or undefined when one is missing. */
export function paramsOf(operation: string, values: Params): Params | undefined {
  const names = GENERATED_TABLES.operations[operation]!.paramNames;
  if (names.some((n) => values[n] === undefined)) return undefined;
  return Object.fromEntries(names.map((n) => [n, values[n]!]));
}

/**
 * Calls each operation on each binding through `baseUrl` with the generated client's engine; an
 * error (a refusal, an answer it cannot read) is kept, not thrown. Resolves once the proxy has
 * checked them all (its close waits for that).
 */
export async function callAll(
  baseUrl: string,
  key: { apiKey: string; secretKey: string },
  names: readonly string[],
  values: Params,
  onRequest?: ClientOptions['onRequest'],
): Promise<string[]> {
  const errors: string[] = [];
  for (const binding of BINDING_IDS) {
    const client = createTransport({
      baseUrl,
      ...key,
      auth: authScheme,
      wire: WIRE,
      binding,
      ...(onRequest ? { onRequest } : {}),
    });
    for (const name of names) {
      const params = paramsOf(name, values);
      if (!params) continue;
      await client
        .call(GENERATED_TABLES.operations[name]!, params)
        .catch((e: Error) => errors.push(`${name} ${binding}: ${e.message}`));
    }
  }
  return errors;
}

export interface RawExchange extends RawAnswer {
  readonly statusMessage: string;
  /** Raw header pairs as received. */
  readonly rawHeaders: readonly string[];
}

/** One request with node:http (any Host, any header), the answer as received. */
export function send(
  url: string,
  o: { method?: string; headers?: IncomingHttpHeaders | string[]; body?: string | Buffer } = {},
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: o.method ?? 'GET', headers: o.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          statusMessage: res.statusMessage ?? '',
          rawHeaders: res.rawHeaders,
          type: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** A request made by hand: which binding and method, its credentials as signed, its changes. */
export interface Given {
  binding?: string;
  method?: string;
  /** Credentials as signed (default: correct ones, fresh). */
  auth?: (v: AuthValues) => Promise<AuthValues> | AuthValues;
  /** The request changed after signing. */
  change?: (r: { url: string; headers: Record<string, string>; body: string }) => void;
}

/** Where and as whom: the base URL, the key, the namespace, the call, fresh Timestamps. */
export interface Sender {
  readonly base: string;
  readonly key: { apiKey: string; secretKey: string };
  readonly ns: string;
  readonly operation: string;
  readonly params: object;
  readonly stamp: (offsetMs?: number) => string;
}

export interface HandMade {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** A call of `s.operation` as the generated client makes it, then as `g` changes it. */
export async function handMade(s: Sender, g: Given): Promise<HandMade> {
  const binding = WIRE.bindings.find((b) => b.id === (g.binding ?? 'soap11'))!;
  const built = await buildRequest(
    {
      endpoint: `${s.base}${WIRE.endpointPath}`,
      ns: s.ns,
      apiKey: s.key.apiKey,
      secretKey: s.key.secretKey,
      auth: authScheme,
      timestamp: s.stamp(),
    },
    GENERATED_TABLES.operations[s.operation]!,
    s.params,
    binding,
  );
  const r = {
    url: built.url,
    headers: { ...(built.init.headers as Record<string, string>) },
    body: typeof built.init.body === 'string' ? built.init.body : '',
  };
  if (g.auth) {
    const v = await g.auth({
      Timestamp: s.stamp(),
      Operation: s.operation,
      Signature: '',
      APIKey: s.key.apiKey,
    });
    if (binding.kind === 'soap')
      r.body = r.body.replace(
        /<AuthenticationHeader[\s\S]*<\/AuthenticationHeader>/,
        authScheme.encodeHeader(v, s.ns),
      );
    else
      Object.assign(r.headers, {
        APIKey: v.APIKey,
        Timestamp: v.Timestamp,
        Signature: v.Signature,
        Operation: v.Operation,
      });
  }
  g.change?.(r);
  return {
    url: r.url,
    method: g.method ?? binding.method,
    headers: r.headers,
    ...(r.body ? { body: r.body } : {}),
  };
}

/** Credentials signed correctly for another Timestamp or Operation, or with another secret. */
export const signed =
  (o: { secret: string; timestamp?: string; operation?: string }) =>
  async (v: AuthValues): Promise<AuthValues> => {
    const Timestamp = o.timestamp ?? v.Timestamp;
    const Operation = o.operation ?? v.Operation;
    return {
      ...v,
      Timestamp,
      Operation,
      Signature: await signRequest(o.secret, Operation, Timestamp),
    };
  };

/** Sends a hand-made request. */
export const sendMade = (r: HandMade): Promise<RawExchange> =>
  send(r.url, {
    method: r.method,
    headers: r.headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
  });
