// One exchange, once it is over: its request and answer checked, every finding counted (and the
// new ones shown), the credentials and clock noted, and the exchange recorded, each with the
// Signature and the known secrets redacted. Runs after the answer went out: checking never holds
// an answer back.
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import type { AnswerChecker } from '@evgen/runtime/internal';
import { bodyText, type CassetteWriter, type HeaderPairs } from './cassette.js';
import type { Forwarded } from './forward.js';
import { clipped, type Finding } from './finding.js';
import { Redactor } from './redact.js';
import type { ProxyLog } from './report.js';
import { checkAnswer } from './response-checks.js';
import { checkRequest, type RequestContext } from './request-checks.js';
import type { Route } from './routes.js';
import type { SecretLookup } from './secrets.js';
import type { ServiceTables } from './tables.js';

export interface InspectContext {
  readonly tables: ServiceTables;
  readonly checker: AnswerChecker;
  readonly log: ProxyLog;
  readonly secrets: SecretLookup | undefined;
  /** Secrets to redact wherever they appear (those of a secret file). */
  readonly knownSecrets: readonly string[];
  readonly record: CassetteWriter | undefined;
  readonly maxCheckBytes: number;
  readonly onFinding: (f: Finding) => void;
}

export interface Exchange {
  readonly route: Route;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawHeaders: readonly string[];
  /** The proxy's clock when the request arrived. */
  readonly at: number;
  readonly durationMs: number;
  readonly forwarded: Forwarded;
  /** What the request checks need beyond the tables: namespaces of this request's Host. */
  readonly requestContext: RequestContext;
}

const pairs = (raw: readonly string[]): HeaderPairs => {
  const out: HeaderPairs = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
};

const headerOf = (raw: readonly string[], name: string): string | undefined => {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
};

/** A body as the checks read it: decompressed when sent compressed (within the bound). */
function decoded(
  body: Uint8Array | undefined,
  encoding: string | undefined,
  max: number,
): Uint8Array | undefined {
  const e = encoding?.trim().toLowerCase();
  if (body === undefined || !e || e === 'identity') return body;
  const o = { maxOutputLength: max };
  try {
    if (e === 'gzip' || e === 'x-gzip') return gunzipSync(body, o);
    if (e === 'deflate') return inflateSync(body, o);
    if (e === 'br') return brotliDecompressSync(body, o);
  } catch {
    return undefined;
  }
  return undefined;
}

export const routeName = (r: Route): string =>
  r.kind === 'soap' || r.kind === 'http' ? r.binding.id : r.kind;

export async function inspect(x: InspectContext, e: Exchange): Promise<void> {
  const { route, forwarded: f } = e;
  const time = new Date(e.at).toISOString();
  x.log.exchange(routeName(route));
  const why = (c: { dropped: string | undefined }) => c.dropped;
  const requestBody = f.requestComplete
    ? decoded(f.request.bytes(), e.headers['content-encoding'], x.maxCheckBytes)
    : undefined;
  if (requestBody === undefined && f.request.total > 0)
    x.log.unchecked(`request body ${why(f.request) ?? 'not whole or not readable'}`);
  const verdict = await checkRequest(e.requestContext, route, {
    method: e.method,
    url: e.url,
    headers: e.headers,
    body: requestBody,
    at: e.at,
  });
  const findings = [...verdict.findings];
  const res = f.response;
  if (f.failure !== undefined)
    findings.push({
      direction: 'response',
      binding: routeName(route),
      operation: verdict.operation,
      check: 'target answers',
      level: 'document',
      source: 'the target',
      path: '',
      expected: 'an answer',
      found: f.failure,
      message: `no answer from the target: ${f.failure}`,
    });
  const responseEncoding = res && headerOf(res.rawHeaders, 'content-encoding');
  const body = res && decoded(res.body.bytes(), responseEncoding, x.maxCheckBytes);
  if (f.failure === undefined && res) {
    if (body === undefined) x.log.unchecked(`answer ${why(res.body) ?? 'not readable'}`);
    else
      findings.push(
        ...checkAnswer(x.checker, x.tables.wire, route, verdict, {
          status: res.status,
          type: headerOf(res.rawHeaders, 'content-type') ?? '',
          body,
        }),
      );
  }
  if (f.failure !== undefined) x.log.targetFailure();
  if (verdict.offsetMs !== undefined) x.log.offset(verdict.offsetMs);
  if (verdict.signature) x.log.signature(verdict.signature, verdict.credentials?.APIKey);
  const apiKey = verdict.credentials?.APIKey;
  const redact = new Redactor(x.tables.auth.httpHeaders.signature, [
    verdict.credentials?.Signature,
    ...(apiKey !== undefined ? [await x.secrets?.(apiKey)] : []),
    ...x.knownSecrets,
  ]);
  for (const finding of findings) {
    // Redacted whole, then clipped: a secret cut in two would escape the redaction.
    const clean = clipped({
      ...finding,
      path: redact.text(finding.path),
      expected: redact.text(finding.expected),
      found: redact.text(finding.found),
      message: redact.text(finding.message),
    });
    if (x.log.finding(clean, time)) x.onFinding(clean);
  }
  x.record?.record({
    time,
    durationMs: Math.round(e.durationMs * 1000) / 1000,
    binding: routeName(route),
    operation: verdict.operation,
    request: {
      method: e.method,
      url: redact.text(e.url),
      headers: redact.headers(pairs(e.rawHeaders)),
      bodyBytes: f.request.total,
      ...recordedBody(redact, requestBody, why(f.request), e.headers['content-encoding']),
    },
    response: {
      status: res?.status ?? 502,
      statusMessage: res?.statusMessage ?? '',
      headers: redact.headers(pairs(res?.rawHeaders ?? [])),
      bodyBytes: res?.body.total ?? 0,
      ...recordedBody(redact, body, res ? why(res.body) : 'no answer', responseEncoding),
      ...(f.failure !== undefined ? { error: redact.text(f.failure) } : {}),
    },
  });
}

/** A body for the cassette: as the checks read it (decoded, saying from what), redacted. */
function recordedBody(
  r: Redactor,
  body: Uint8Array | undefined,
  why: string | undefined,
  encoding: string | undefined,
): { body?: string; omitted?: string; decoded?: string } {
  const b = bodyText(body, why);
  if (b.body === undefined) return b;
  const e = encoding?.trim().toLowerCase();
  return { body: r.text(b.body), ...(e && e !== 'identity' ? { decoded: e } : {}) };
}
