// Readers the generated decoders call, on an XmlDocument and an element number. Scalar readers
// raise errors at their own element; complex and list readers add their names to the path as
// errors travel up.
import { NO_ELEMENT, type XmlDocument } from './document.js';
import { ValueError, XmlDecodeError } from './errors.js';
import {
  parseBooleanLexical,
  parseDateTimeLexical,
  parseDecimalLexical,
  parseIntLexical,
  type Decimal,
  type LocalDateTime,
} from './values.js';

function failed(d: XmlDocument, el: number, e: unknown): never {
  if (e instanceof ValueError) throw new XmlDecodeError(d.name(el), e.expected, d.text(el), el);
  throw e;
}

export const readString = (d: XmlDocument, el: number): string => d.text(el);

export function readInt(d: XmlDocument, el: number): number {
  const fast = d.smallInt(el);
  if (fast !== undefined) return fast;
  try {
    return parseIntLexical(d.text(el));
  } catch (e) {
    return failed(d, el, e);
  }
}

export function readBoolean(d: XmlDocument, el: number): boolean {
  const fast = d.plainBoolean(el);
  if (fast !== undefined) return fast;
  try {
    return parseBooleanLexical(d.text(el));
  } catch (e) {
    return failed(d, el, e);
  }
}

export function readDateTime(d: XmlDocument, el: number): LocalDateTime {
  try {
    return parseDateTimeLexical(d.text(el));
  } catch (e) {
    return failed(d, el, e);
  }
}

export function readDecimal(d: XmlDocument, el: number, scale: number): Decimal {
  try {
    return parseDecimalLexical(d.text(el), scale);
  } catch (e) {
    return failed(d, el, e);
  }
}

/** A generated decoder of one complex type. */
export type ElementDecoder<T> = (d: XmlDocument, el: number, ns: string) => T;

/** Decodes a complex element; errors inside get the element's name in front. */
export function readComplex<T>(
  d: XmlDocument,
  el: number,
  ns: string,
  decode: ElementDecoder<T>,
): T {
  try {
    return decode(d, el, ns);
  } catch (e) {
    if (e instanceof XmlDecodeError && e.origin !== el) throw e.prepend(d.name(el));
    throw e;
  }
}

/** Items of a list wrapper: children named `itemName` in `ns`; anything else is ignored. */
export function readList<T>(
  d: XmlDocument,
  wrapper: number,
  ns: string,
  itemName: string,
  decodeItem: ElementDecoder<T>,
): T[] {
  const out: T[] = [];
  const nsId = d.nsId(ns);
  for (let c = d.firstChild(wrapper); c !== NO_ELEMENT; c = d.nextSibling(c)) {
    if (d.nsIdOf(c) !== nsId || d.name(c) !== itemName) continue;
    try {
      out.push(decodeItem(d, c, ns));
    } catch (e) {
      if (!(e instanceof XmlDecodeError)) throw e;
      const segment = `${itemName}[${out.length}]`;
      throw (e.origin === c ? e.renameOrigin(segment) : e.prepend(segment)).prepend(
        d.name(wrapper),
      );
    }
  }
  return out;
}

/** A required element is absent. */
export const missingElement = (name: string): XmlDecodeError =>
  new XmlDecodeError(name, 'an element', undefined);

/** A non-nullable element carries xsi:nil. */
export const nilNotAllowed = (d: XmlDocument, el: number): XmlDecodeError =>
  new XmlDecodeError(d.name(el), 'a value', 'nil', el);
