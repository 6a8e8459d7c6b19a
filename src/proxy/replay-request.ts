// A recorded request made again for another service: the same method, path, query, headers and
// body, with the recorded namespace replaced by the service's, generated ids replaced by those the
// replay got (after a write), and the credentials re-signed: the replay's API key, a fresh
// Timestamp, and the Signature of the recorded Operation with it.
import { NO_ELEMENT, escapeText, readSoapEnvelope, readXml } from '@evgen/runtime/internal';
import type { RecordedExchange } from './cassette.js';
import { ID_NAME } from './ignore.js';
import { signatureOf } from './signature.js';
import type { ServiceTables } from './tables.js';

export interface ReplayTarget {
  /** {base_url} of the service replayed against. */
  readonly base: string;
  /** Its {soap_namespace}. */
  readonly ns: string;
  readonly apiKey: string;
  readonly secretKey: string;
}

export interface RebuiltRequest {
  readonly url: string;
  readonly init: { method: string; headers: [string, string][]; body?: string };
  /** The namespace the recorded request was in (SOAP), to read the recorded answer as this one's. */
  readonly recordedNs: string | undefined;
  /** The Signature sent, never to be shown. */
  readonly signature: string;
}

/** Header fields a replay does not send as recorded: the connection's, and what fetch sets. */
const NOT_RESENT = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The payload's namespace of a SOAP body, if it reads as one. */
function payloadNs(body: string): string | undefined {
  try {
    const d = readXml(body);
    const { payload } = readSoapEnvelope(d);
    return payload === NO_ELEMENT ? undefined : d.ns(payload);
  } catch {
    return undefined;
  }
}

/** Generated ids the replay learnt (recorded → replayed), in elements and parameters named like ids. */
function mapIds(text: string, ids: ReadonlyMap<string, string>, form: boolean): string {
  if (ids.size === 0) return text;
  if (form) {
    const params = new URLSearchParams(text);
    for (const [k, v] of params) if (ID_NAME.test(k) && ids.has(v)) params.set(k, ids.get(v)!);
    return params.toString();
  }
  return text.replace(
    /<((?:[\w.-]+:)?([\w.-]+))>([^<]*)<\/\1>/g,
    (m, tag: string, name: string, value: string) =>
      ID_NAME.test(name) && ids.has(value) ? `<${tag}>${escapeText(ids.get(value)!)}</${tag}>` : m,
  );
}

/** The text of header field `name` of the AuthenticationHeader, replaced by `value`. */
function setField(xml: string, header: string, name: string, value: string): string {
  const block = new RegExp(
    `(<(?:[\\w.-]+:)?${escapeRe(header)}[\\s>][\\s\\S]*?</(?:[\\w.-]+:)?${escapeRe(header)}\\s*>)`,
  );
  return xml.replace(block, (h) =>
    h.replace(
      new RegExp(`(<((?:[\\w.-]+:)?${escapeRe(name)})(?:\\s[^>]*)?>)[^<]*(</\\2\\s*>)`),
      (_m, open: string, _tag: string, close: string) => `${open}${escapeText(value)}${close}`,
    ),
  );
}

function fieldOf(xml: string, header: string, name: string): string | undefined {
  const h = new RegExp(
    `<(?:[\\w.-]+:)?${escapeRe(header)}[\\s>][\\s\\S]*?</(?:[\\w.-]+:)?${escapeRe(header)}\\s*>`,
  ).exec(xml)?.[0];
  return h
    ? new RegExp(`<((?:[\\w.-]+:)?${escapeRe(name)})(?:\\s[^>]*)?>([^<]*)</\\1\\s*>`).exec(h)?.[2]
    : undefined;
}

/** The request to send, or why this exchange is not replayed. */
export function rebuildRequest(
  t: ServiceTables,
  e: RecordedExchange,
  target: ReplayTarget,
  timestamp: string,
  ids: ReadonlyMap<string, string>,
): RebuiltRequest | { skip: string } {
  const binding = t.wire.bindings.find((b) => b.id === e.binding);
  if (!binding) return { skip: `not an operation call (${e.binding})` };
  if (e.response.error !== undefined)
    return { skip: `the target gave no answer when recorded: ${e.response.error}` };
  const body = e.request.body;
  if (body === undefined && e.request.bodyBytes > 0)
    return { skip: `request body not recorded (${e.request.omitted ?? 'not kept'})` };
  const h = t.auth.httpHeaders;
  const url = new URL(e.request.url, 'http://recorded.invalid');
  const query = mapIds(url.search.slice(1), ids, true);
  const path = `${target.base.replace(/\/+$/, '')}${url.pathname}${query ? `?${query}` : ''}`;
  const recordedNs = binding.kind === 'soap' && body ? payloadNs(body) : undefined;
  const rebase = (s: string) => (recordedNs ? s.split(recordedNs).join(target.ns) : s);
  const headers: [string, string][] = [];
  let operation = e.operation;
  for (const [name, value] of e.request.headers) {
    const lower = name.toLowerCase();
    if (NOT_RESENT.has(lower) || (lower === 'content-encoding' && e.request.decoded)) continue;
    if (lower === h.operation.toLowerCase()) operation = value;
    headers.push([name, rebase(value)]);
  }
  let text = body === undefined ? undefined : mapIds(body, ids, binding.kind === 'http');
  const header = t.auth.headerElement;
  if (binding.kind === 'soap' && text !== undefined)
    operation = fieldOf(text, header, 'Operation') ?? operation;
  const signature = signatureOf(target.secretKey, operation, timestamp);
  if (binding.kind === 'soap' && text !== undefined) {
    text = setField(rebase(text), header, 'Timestamp', timestamp);
    text = setField(text, header, 'APIKey', target.apiKey);
    text = setField(text, header, 'Signature', signature);
  } else {
    const set = (name: string, value: string) => {
      const i = headers.findIndex(([k]) => k.toLowerCase() === name.toLowerCase());
      if (i >= 0) headers[i] = [headers[i]![0], value];
      else headers.push([name, value]);
    };
    set(h.apiKey, target.apiKey);
    set(h.timestamp, timestamp);
    set(h.signature, signature);
  }
  return {
    url: path,
    init: {
      method: e.request.method,
      headers,
      ...(text !== undefined && text !== '' ? { body: text } : {}),
    },
    recordedNs,
    signature,
  };
}
