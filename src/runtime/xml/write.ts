// Writers the generated encoders call: escaping, and values written in their exact lexical form.
import { ValueError, XmlEncodeError, wrongType } from './errors.js';
import {
  localDateTimeLexical,
  parseDecimalLexical,
  type Decimal,
  type LocalDateTime,
} from './values.js';

// Any character that needs escaping or checking; the common case (plain text) returns at once.
const NEEDS_WORK = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/u;
const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#xD;',
};
const ATTR_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
};

function checkChars(s: string, path: string): void {
  const m = INVALID.exec(s);
  if (m)
    throw new XmlEncodeError(
      path,
      'expected characters allowed in XML 1.0',
      `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} in ${JSON.stringify(s.slice(0, 40))}`,
    );
}

/** Text content of a string the caller has checked is a string. */
export function escapeText(s: string, path = 'text'): string {
  if (!NEEDS_WORK.test(s)) return s;
  checkChars(s, path);
  return s.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!);
}

export function escapeAttr(s: string): string {
  if (!NEEDS_WORK.test(s)) return s;
  checkChars(s, 'attribute');
  return s.replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c]!);
}

// Generated encoders call the writers below with the field's `Type.Field` path. Each refuses a
// value of the wrong kind (undefined, null, a number for a string...) before anything is written:
// TypeScript checks handlers, but JavaScript callers and `as` casts get past it.

/** A string field's text content. */
export function writeString(s: string, path: string): string {
  if (typeof s !== 'string') throw wrongType(path, 'string', s);
  if (!NEEDS_WORK.test(s)) return s; // the common case, as in escapeText
  checkChars(s, path);
  return s.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!);
}

/** A string parameter of HTTP GET/POST (URL-encoded by the caller, so not escaped). */
export function checkString(s: string, path: string): string {
  if (typeof s !== 'string') throw wrongType(path, 'string', s);
  return s;
}

export function writeInt(n: number, path: string): string {
  if (typeof n === 'number' && (n | 0) === n) return String(n); // an int32, the common case
  if (typeof n !== 'number') throw wrongType(path, 'int', n);
  throw new XmlEncodeError(path, 'expected int (32-bit integer)', n);
}

export function writeBoolean(b: boolean, path: string): string {
  if (b === true) return 'true';
  if (b === false) return 'false';
  throw wrongType(path, 'boolean', b);
}

function lexical<T>(path: string, type: string, value: unknown, parse: (s: string) => T): T {
  if (typeof value !== 'string') throw wrongType(path, type, value);
  try {
    return parse(value);
  } catch (e) {
    if (e instanceof ValueError) throw new XmlEncodeError(path, `expected ${e.expected}`, value);
    throw e;
  }
}

/** Exactly `scale` fraction digits; a value needing more is an error, never rounded. */
export const writeDecimal = (value: Decimal, scale: number, path: string): string =>
  lexical(path, 'decimal (a string of its digits)', value, (s) => parseDecimalLexical(s, scale));

export const writeDateTime = (value: LocalDateTime, path: string): string =>
  lexical(path, 'dateTime (a string yyyy-MM-ddTHH:mm:ss)', value, localDateTimeLexical);
