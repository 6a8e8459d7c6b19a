// Readers the generated decoders call. Scalar readers raise errors at their own element; complex
// and list readers add their names to the path as errors travel up.
import type { XmlElement } from './dom.js';
import { ValueError, XmlDecodeError } from './errors.js';
import { parseBooleanLexical, parseDateTimeLexical, parseDecimalLexical, parseIntLexical, type Decimal, type LocalDateTime } from './values.js';

function scalar<T>(el: XmlElement, parse: (s: string) => T): T {
  try {
    return parse(el.text);
  } catch (e) {
    if (e instanceof ValueError) throw new XmlDecodeError(el.name, e.expected, el.text, el);
    throw e;
  }
}

export const readString = (el: XmlElement): string => el.text;
export const readInt = (el: XmlElement): number => scalar(el, parseIntLexical);
export const readBoolean = (el: XmlElement): boolean => scalar(el, parseBooleanLexical);
export const readDateTime = (el: XmlElement): LocalDateTime => scalar(el, parseDateTimeLexical);
export const readDecimal = (el: XmlElement, scale: number): Decimal => scalar(el, (s) => parseDecimalLexical(s, scale));

/** Decodes a complex element; errors inside get the element's name in front. */
export function readComplex<T>(el: XmlElement, decode: (el: XmlElement) => T): T {
  try {
    return decode(el);
  } catch (e) {
    if (e instanceof XmlDecodeError && e.origin !== el) throw e.prepend(el.name);
    throw e;
  }
}

/** Items of a list wrapper: children named `itemName` in `ns`; anything else is ignored. */
export function readList<T>(wrapper: XmlElement, ns: string, itemName: string, decodeItem: (el: XmlElement) => T): T[] {
  const out: T[] = [];
  const children = wrapper.children;
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    if (c.name !== itemName || c.ns !== ns) continue;
    try {
      out.push(decodeItem(c));
    } catch (e) {
      if (!(e instanceof XmlDecodeError)) throw e;
      const segment = `${itemName}[${out.length}]`;
      throw (e.origin === c ? e.renameOrigin(segment) : e.prepend(segment)).prepend(wrapper.name);
    }
  }
  return out;
}

/** A required element is absent. */
export const missingElement = (name: string): XmlDecodeError => new XmlDecodeError(name, 'an element', undefined);

/** A non-nullable element carries xsi:nil. */
export const nilNotAllowed = (el: XmlElement): XmlDecodeError => new XmlDecodeError(el.name, 'a value', 'nil', el);
