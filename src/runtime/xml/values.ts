// Lexical forms of the spec's primitive types, shared by XML values and HTTP GET/POST parameters.
import { ValueError } from './errors.js';

/** A decimal as a string with exactly its field's scale, e.g. "12.50"; never a binary float. */
export type Decimal = string;
/** A local date and time `yyyy-MM-ddTHH:mm:ss` (optionally with a fraction), never zone-shifted. */
export type LocalDateTime = string;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const isXmlSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
// Values almost never carry surrounding whitespace: check the ends before paying for a regex.
const trimXml = (s: string) =>
  s.length > 0 && (isXmlSpace(s.charCodeAt(0)) || isXmlSpace(s.charCodeAt(s.length - 1))) ? s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '') : s;

export function parseIntLexical(s: string): number {
  // Fast path: up to 9 plain digits cannot leave int32.
  if (s.length > 0 && s.length < 10 && /^\d+$/.test(s)) return Number(s);
  const t = trimXml(s);
  if (!/^[+-]?\d+$/.test(t)) throw new ValueError('int');
  const n = Number(t);
  if (n < INT32_MIN || n > INT32_MAX) throw new ValueError('int (32-bit)');
  return n === 0 ? 0 : n;
}

export function parseBooleanLexical(s: string): boolean {
  if (s === 'true') return true;
  if (s === 'false') return false;
  const t = trimXml(s);
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw new ValueError('boolean (true or false)');
}

/** Normalises to exactly `scale` fraction digits; more significant digits than that is an error. */
export function parseDecimalLexical(s: string, scale: number): Decimal {
  const m = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(trimXml(s));
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new ValueError(`decimal with ${scale} decimal places`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > scale) throw new ValueError(`decimal with at most ${scale} decimal places`);
  const int = (m[2] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const digits = frac.padEnd(scale, '0');
  const zero = /^0*$/.test(int + digits);
  const sign = m[1] === '-' && !zero ? '-' : '';
  return scale > 0 ? `${sign}${int}.${digits}` : `${sign}${int}`;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

export function parseDateTimeLexical(s: string): LocalDateTime {
  const t = trimXml(s);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,7})?$/.exec(t);
  if (!m) {
    const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(t);
    throw new ValueError(zoned ? 'dateTime without a time zone (yyyy-MM-ddTHH:mm:ss)' : 'dateTime (yyyy-MM-ddTHH:mm:ss)');
  }
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const maxDay = mo === 2 && leap(y) ? 29 : (DAYS[mo - 1] ?? 0);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > maxDay || h > 23 || mi > 59 || sec > 59) {
    throw new ValueError('a valid dateTime (yyyy-MM-ddTHH:mm:ss)');
  }
  return t;
}
