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
  s.length > 0 && (isXmlSpace(s.charCodeAt(0)) || isXmlSpace(s.charCodeAt(s.length - 1)))
    ? s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')
    : s;

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

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Whether `s` is already in canonical form: optional minus, digits without a leading zero, exactly `scale` decimals. */
function isCanonicalDecimal(s: string, scale: number): boolean {
  const dot = s.length - scale - 1;
  let i = s.charCodeAt(0) === 0x2d ? 1 : 0;
  if (dot <= i || s.charCodeAt(dot) !== 0x2e || (s.charCodeAt(i) === 0x30 && dot - i > 1))
    return false;
  for (; i < s.length; i++) if (i !== dot && !isDigit(s.charCodeAt(i))) return false;
  return !(s.charCodeAt(0) === 0x2d && /^-0\.0*$/.test(s)); // -0.00 is written 0.00
}

/** Normalises to exactly `scale` fraction digits; more significant digits than that is an error. */
export function parseDecimalLexical(s: string, scale: number): Decimal {
  if (scale > 0 && isCanonicalDecimal(s, scale)) return s; // what this toolkit and most peers write
  const m = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(trimXml(s));
  if (!m || (m[2] === '' && (m[3] ?? '') === ''))
    throw new ValueError(`decimal with ${scale} decimal places`);
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

/** Two digits at `i` as a number, or NaN. */
const two = (s: string, i: number) =>
  isDigit(s.charCodeAt(i)) && isDigit(s.charCodeAt(i + 1))
    ? (s.charCodeAt(i) - 0x30) * 10 + s.charCodeAt(i + 1) - 0x30
    : NaN;

/** yyyy-MM-ddTHH:mm:ss exactly, checked without a regular expression (the common case on the wire). */
function isPlainDateTime(s: string): boolean {
  if (
    s.length !== 19 ||
    s.charCodeAt(4) !== 0x2d ||
    s.charCodeAt(7) !== 0x2d ||
    s.charCodeAt(10) !== 0x54 ||
    s.charCodeAt(13) !== 0x3a ||
    s.charCodeAt(16) !== 0x3a
  )
    return false;
  const y = two(s, 0) * 100 + two(s, 2);
  const mo = two(s, 5);
  const d = two(s, 8);
  const maxDay = mo === 2 && leap(y) ? 29 : (DAYS[mo - 1] ?? 0);
  return (
    y >= 1 &&
    mo >= 1 &&
    mo <= 12 &&
    d >= 1 &&
    d <= maxDay &&
    two(s, 11) <= 23 &&
    two(s, 14) <= 59 &&
    two(s, 17) <= 59
  );
}

export function parseDateTimeLexical(s: string): LocalDateTime {
  if (isPlainDateTime(s)) return s;
  const t = trimXml(s);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,7})?$/.exec(t);
  if (!m) {
    const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(t);
    throw new ValueError(
      zoned
        ? 'dateTime without a time zone (yyyy-MM-ddTHH:mm:ss)'
        : 'dateTime (yyyy-MM-ddTHH:mm:ss)',
    );
  }
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const maxDay = mo === 2 && leap(y) ? 29 : (DAYS[mo - 1] ?? 0);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > maxDay || h > 23 || mi > 59 || sec > 59) {
    throw new ValueError('a valid dateTime (yyyy-MM-ddTHH:mm:ss)');
  }
  return t;
}
