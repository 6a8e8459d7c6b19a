// Writers the generated encoders call: escaping, and values written in their exact lexical form.
import { ValueError, XmlEncodeError } from './errors.js';
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

function checkChars(s: string): void {
  const m = INVALID.exec(s);
  if (m)
    throw new XmlEncodeError(
      'text',
      'characters allowed in XML 1.0',
      `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} in ${JSON.stringify(s.slice(0, 40))}`,
    );
}

export function escapeText(s: string): string {
  if (!NEEDS_WORK.test(s)) return s;
  checkChars(s);
  return s.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!);
}

export function escapeAttr(s: string): string {
  if (!NEEDS_WORK.test(s)) return s;
  checkChars(s);
  return s.replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c]!);
}

export function writeInt(n: number, path: string): string {
  if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647)
    throw new XmlEncodeError(path, 'int (32-bit integer)', n);
  return String(n);
}

export const writeBoolean = (b: boolean): string => (b ? 'true' : 'false');

function lexical<T>(path: string, value: unknown, parse: (s: string) => T): T {
  if (typeof value !== 'string')
    throw new XmlEncodeError(path, 'a string holding the exact value', value);
  try {
    return parse(value);
  } catch (e) {
    if (e instanceof ValueError) throw new XmlEncodeError(path, e.expected, value);
    throw e;
  }
}

/** Exactly `scale` fraction digits; a value needing more is an error, never rounded. */
export const writeDecimal = (value: Decimal, scale: number, path: string): string =>
  lexical(path, value, (s) => parseDecimalLexical(s, scale));

export const writeDateTime = (value: LocalDateTime, path: string): string =>
  lexical(path, value, localDateTimeLexical);
