// A proxy in front of a target, with the findings it reports, and traffic of the generated
// client's engine through it: every operation a target implements, on every binding.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createTransport, type ClientOptions, type RawAnswer } from '@evgen/runtime';
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
