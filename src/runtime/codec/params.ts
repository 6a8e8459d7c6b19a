// HTTP GET query and HTTP POST form parameters, read with the same lexical rules as XML values.
// Errors are decode errors whose path is the parameter name.
import {
  ValueError,
  XmlDecodeError,
  parseBooleanLexical,
  parseDateTimeLexical,
  parseDecimalLexical,
  parseIntLexical,
  type Decimal,
  type LocalDateTime,
} from '../xml/index.js';

function param<T>(form: URLSearchParams, name: string, what: string, parse: (s: string) => T): T {
  const raw = form.get(name);
  if (raw === null) throw new XmlDecodeError(name, `parameter ${name} (${what})`, undefined);
  try {
    return parse(raw);
  } catch (e) {
    if (e instanceof ValueError) throw new XmlDecodeError(name, e.expected, raw);
    throw e;
  }
}

export const paramString = (form: URLSearchParams, name: string): string =>
  param(form, name, 'string', (s) => s);
export const paramInt = (form: URLSearchParams, name: string): number =>
  param(form, name, 'int', parseIntLexical);
export const paramBoolean = (form: URLSearchParams, name: string): boolean =>
  param(form, name, 'boolean', parseBooleanLexical);
export const paramDateTime = (form: URLSearchParams, name: string): LocalDateTime =>
  param(form, name, 'dateTime', parseDateTimeLexical);
export const paramDecimal = (form: URLSearchParams, name: string, scale: number): Decimal =>
  param(form, name, `decimal with ${scale} places`, (s) => parseDecimalLexical(s, scale));
