// The signed AuthenticationHeader: Signature = base64(HMAC-SHA1(utf8(secret), utf8(Operation +
// Timestamp))), computed through the platform (signature.ts: node:crypto, or Web Crypto in
// browsers) for client and server alike. The secret is never sent.
import { daysIn } from '../xml/calendar.js';
import type { XmlDocument } from '../xml/index.js';
import { hmacSha1Base64 } from './signature.js';

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

/** The Signature of a request (a promise: Web Crypto, the browsers' HMAC, is asynchronous). */
export function signRequest(secret: string, operation: string, timestamp: string): Promise<string> {
  return hmacSha1Base64(secret, operation + timestamp);
}

/** yyyy-MM-ddTHH:mm:ss.fffZ in UTC. */
export const formatTimestamp = (ms: number): string => new Date(ms).toISOString();

const SHAPE = '0000-00-00T00:00:00.000Z'; // '0' stands for a digit, anything else for itself
const ZERO = 48;
/** Date.UTC reads years 0–99 as 1900–1999; 400 Gregorian years are always this long. */
const CYCLE_MS = 146_097 * 86_400_000;

/** The number of `n` digits at `at` (the shape is checked first). */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 10 + s.charCodeAt(i) - ZERO;
  return v;
}

/**
 * Milliseconds of an exactly formatted, real UTC timestamp, or undefined. Read by hand, not with
 * Date.parse and a round trip through toISOString: every signed request comes through here, and
 * that pair was about 4% of the server's time per small call.
 */
export function parseTimestamp(s: string): number | undefined {
  if (s.length !== SHAPE.length) return undefined;
  for (let i = 0; i < SHAPE.length; i++) {
    const c = s.charCodeAt(i);
    if (SHAPE.charCodeAt(i) === ZERO ? c < ZERO || c > ZERO + 9 : c !== SHAPE.charCodeAt(i))
      return undefined;
  }
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  if (day < 1 || day > daysIn(year, month)) return undefined; // refuses 02-30, month 13 and the like
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(year + 400, month - 1, day, hour, minute, second, digits(s, 20, 3));
  return ms - CYCLE_MS;
}

/** Strictly increasing timestamps, so two calls in one millisecond are never seen as a replay. */
export class TimestampClock {
  #last: number;
  /** `after`: a time in ms this clock's first timestamp must come after (default none). */
  constructor(
    private readonly now: () => number = Date.now,
    after = 0,
  ) {
    this.#last = after;
  }
  /** The last timestamp handed out, in ms (the `after` given when none was). */
  get last(): number {
    return this.#last;
  }
  next(): string {
    this.#last = Math.max(this.now(), this.#last + 1);
    return formatTimestamp(this.#last);
  }
}

/**
 * One clock per API key, for at most `maxKeys` keys: past that the key used least recently gives
 * its clock up. A clock made again for a key starts after every timestamp a dropped clock handed
 * out, so a key's timestamps keep increasing whatever was dropped in between.
 */
export class KeyClocks {
  readonly #clocks = new Map<string, TimestampClock>();
  #dropped = 0;
  constructor(
    readonly maxKeys: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#clocks.size;
  }

  /** The next timestamp for `apiKey`. */
  next(apiKey: string): string {
    let clock = this.#clocks.get(apiKey);
    if (clock)
      this.#clocks.delete(apiKey); // re-inserted below: the Map's order is recency
    else {
      if (this.#clocks.size >= this.maxKeys) this.#drop();
      clock = new TimestampClock(this.now, this.#dropped);
    }
    this.#clocks.set(apiKey, clock);
    return clock.next();
  }

  #drop(): void {
    const [key, clock] = this.#clocks.entries().next().value!;
    this.#clocks.delete(key);
    this.#dropped = Math.max(this.#dropped, clock.last);
  }
}
