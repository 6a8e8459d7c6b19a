// The signed AuthenticationHeader: Signature = base64(HMAC-SHA1(utf8(secret), utf8(Operation +
// Timestamp))). Web Crypto only, so the client also runs in browsers. The secret is never sent.
import type { XmlDocument } from '../xml/index.js';

export interface AuthValues {
  Timestamp: string;
  Operation: string;
  Signature: string;
  APIKey: string;
}

/** What generated code tells the engines about the header (names come from the spec). */
export interface AuthScheme {
  readonly headerElement: string;
  encodeHeader(values: AuthValues, ns: string): string;
  decodeHeader(d: XmlDocument, el: number): AuthValues;
  /** HTTP GET/POST carry the same values as these request headers. */
  readonly httpHeaders: {
    readonly apiKey: string;
    readonly timestamp: string;
    readonly signature: string;
    readonly operation: string;
  };
}

const utf8 = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 1024) keys.clear(); // bounded: a server sees one entry per API key
    key = crypto.subtle.importKey(
      'raw',
      utf8.encode(secret),
      { name: 'HMAC', hash: 'SHA-1' },
      false,
      ['sign'],
    );
    keys.set(secret, key);
  }
  return key;
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export async function signRequest(
  secret: string,
  operation: string,
  timestamp: string,
): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    utf8.encode(operation + timestamp),
  );
  return base64(new Uint8Array(mac));
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** yyyy-MM-ddTHH:mm:ss.fffZ in UTC. */
export const formatTimestamp = (ms: number): string => new Date(ms).toISOString();

/** Milliseconds of an exactly formatted, real UTC timestamp, or undefined. */
export function parseTimestamp(s: string): number | undefined {
  if (!TIMESTAMP.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) || formatTimestamp(ms) !== s ? undefined : ms; // refuses 02-30 and the like
}

/** Strictly increasing timestamps, so two calls in one millisecond are never seen as a replay. */
export class TimestampClock {
  #last = 0;
  constructor(private readonly now: () => number = Date.now) {}
  next(): string {
    this.#last = Math.max(this.now(), this.#last + 1);
    return formatTimestamp(this.#last);
  }
}
