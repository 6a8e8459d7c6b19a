// Lexical forms of the spec's primitive types, shared by XML values and HTTP GET/POST parameters.
import { daysIn } from './calendar.js';
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
  return (
    y >= 1 &&
    mo >= 1 &&
    mo <= 12 &&
    d >= 1 &&
    d <= daysIn(y, mo) &&
    two(s, 11) <= 23 &&
    two(s, 14) <= 59 &&
    two(s, 17) <= 59
  );
}

const LOCAL_FORM = 'yyyy-MM-ddTHH:mm:ss';
// Every xs:dateTime lexical form; the year is checked apart so that its error can say why.
const XSD_DATE_TIME =
  /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-](\d{2}):(\d{2}))?$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Any xs:dateTime as the interface's zone-less value (gap datetime-zones): a zone or offset is
 * dropped and the wall-clock value kept, never converted; the fraction loses its trailing zeros
 * (more than 7 significant digits, finer than .NET's 100 ns, is refused rather than rounded);
 * 24:00:00 becomes 00:00:00 of the next day. Years outside 0001..9999 are refused.
 */
export function parseDateTimeLexical(s: string): LocalDateTime {
  if (isPlainDateTime(s)) return s;
  const m = XSD_DATE_TIME.exec(trimXml(s));
  if (!m) throw new ValueError(`dateTime (${LOCAL_FORM}, optionally .fffffff and Z or ±hh:mm)`);
  const [, year = '', , , , , , fraction = '', zone, zh, zm] = m;
  const [mo, d, h, mi, sec] = m.slice(2, 7).map(Number) as [number, number, number, number, number];
  if (zone !== undefined && zone !== 'Z') {
    const [oh, om] = [Number(zh), Number(zm)];
    if (oh > 14 || om > 59 || (oh === 14 && om > 0))
      throw new ValueError('dateTime with a time zone offset from -14:00 to +14:00');
  }
  const digits = fraction.replace(/0+$/, '');
  if (digits.length > 7) throw new ValueError('dateTime with at most 7 fractional digits');
  let y = /^\d{4}$/.test(year) ? Number(year) : 0;
  const endOfDay = h === 24 && mi === 0 && sec === 0 && digits === '';
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(Math.max(y, 1), mo))
    throw new ValueError(`a valid dateTime (${LOCAL_FORM})`);
  if ((h > 23 && !endOfDay) || mi > 59 || sec > 59)
    throw new ValueError(`a valid dateTime (${LOCAL_FORM})`);
  let [month, day] = [mo, d];
  if (endOfDay) {
    day += 1;
    if (day > daysIn(y, month)) [day, month] = [1, month + 1];
    if (month > 12) [month, y] = [1, y + 1];
  }
  if (y < 1 || y > 9999) throw new ValueError('dateTime with a year from 0001 to 9999');
  const time = endOfDay ? '00:00:00' : `${pad(h)}:${pad(mi)}:${pad(sec)}`;
  return `${pad(y, 4)}-${pad(month)}-${pad(day)}T${time}${digits && `.${digits}`}`;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,7})?$/;

/** The document's form only, for writing: `yyyy-MM-ddTHH:mm:ss` with an optional .f{1,7}, no zone. */
export function localDateTimeLexical(s: string): LocalDateTime {
  if (isPlainDateTime(s)) return s;
  const t = trimXml(s);
  const m = LOCAL_DATE_TIME.exec(t);
  if (!m)
    throw new ValueError(
      XSD_DATE_TIME.test(t)
        ? `dateTime without a time zone (${LOCAL_FORM})`
        : `dateTime (${LOCAL_FORM})`,
    );
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || sec > 59)
    throw new ValueError(`a valid dateTime (${LOCAL_FORM})`);
  return t;
}
