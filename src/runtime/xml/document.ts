// A checked XML document as flat arrays, one slot per element in document order: what the
// generated decoders walk. Elements are numbers (0 is the root), so reading a large response
// builds no tree: 32 bytes per element, and text is decoded only when a decoder asks.
import type { XmlElement } from './dom.js';
import {
  F_ATTRS,
  F_CONTENT_END,
  F_CONTENT_START,
  F_FLAGS,
  F_NAME,
  F_NEXT,
  F_NS,
  F_PARENT,
  STRIDE,
  type ElementTable,
} from './slots.js';
import { collectText, decodeAttribute, type Utf8Source } from './text.js';

/** No such element (no first child, no next sibling). */
export const NO_ELEMENT = -1;

export const FLAG_NIL = 1;
/** Content is more than one plain text run (child elements, comments, CDATA, references or CR). */
export const FLAG_MIXED = 2;

const EMPTY_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze(
  Object.create(null) as Record<string, string>,
);

export class XmlDocument {
  readonly #src: Utf8Source;
  readonly #e: Int32Array;
  readonly #attrs: Int32Array;
  readonly #names: readonly string[];
  readonly #uris: readonly string[];
  /** Number of elements. */
  readonly count: number;

  /** @internal Documents come from readXml; the scanner's tables are not the public surface. */
  constructor(src: Utf8Source, table: ElementTable) {
    this.#src = src;
    this.#e = table.e;
    this.#attrs = table.attrs;
    this.#names = table.names;
    this.#uris = table.uris;
    this.count = table.count;
  }

  /** Local name (without prefix). */
  name(el: number): string {
    return this.#names[this.#e[el * STRIDE + F_NAME]!]!;
  }

  /** Namespace URI, '' when none. */
  ns(el: number): string {
    return this.#uris[this.#e[el * STRIDE + F_NS]!]!;
  }

  #lastUri: string | undefined;
  #lastId = NO_ELEMENT;

  /** A number standing for a namespace URI in this document (NO_ELEMENT when the document never declares it). */
  nsId(uri: string): number {
    // Decoders pass the same string down a whole document: remember the last answer.
    if (uri !== this.#lastUri) {
      this.#lastId = this.#uris.indexOf(uri);
      this.#lastUri = uri;
    }
    return this.#lastId;
  }

  /** The namespace of an element as nsId() numbers it: comparing numbers is cheaper than comparing URIs. */
  nsIdOf(el: number): number {
    return this.#e[el * STRIDE + F_NS]!;
  }

  /** xsi:nil="true" or "1", or an un-namespaced nil="true" (HTTP binding shapes). */
  nil(el: number): boolean {
    return (this.#e[el * STRIDE + F_FLAGS]! & FLAG_NIL) !== 0;
  }

  parent(el: number): number {
    return this.#e[el * STRIDE + F_PARENT]!;
  }

  firstChild(el: number): number {
    const c = el + 1;
    return c < this.count && this.#e[c * STRIDE + F_PARENT] === el ? c : NO_ELEMENT;
  }

  nextSibling(el: number): number {
    return this.#e[el * STRIDE + F_NEXT]!;
  }

  /** Child elements, in order. */
  children(el: number): number[] {
    const out: number[] = [];
    for (let c = this.firstChild(el); c !== NO_ELEMENT; c = this.nextSibling(c)) out.push(c);
    return out;
  }

  /** Direct character data (text and CDATA, references resolved). */
  text(el: number): string {
    const at = el * STRIDE;
    const start = this.#e[at + F_CONTENT_START]!;
    const end = this.#e[at + F_CONTENT_END]!;
    if ((this.#e[at + F_FLAGS]! & FLAG_MIXED) === 0)
      return start === end ? '' : this.#src.slice(start, end);
    return collectText(this.#src, start, end);
  }

  /** Null-prototype map of attributes other than namespace declarations: `local` or `{ns}local`. */
  attributes(el: number): Readonly<Record<string, string>> {
    const a = this.#attrs;
    const at = this.#e[el * STRIDE + F_ATTRS]! - 1;
    if (at < 0) return EMPTY_ATTRIBUTES;
    const out = Object.create(null) as Record<string, string>;
    for (let k = 0, p = at + 1; k < a[at]!; k++, p += 5) {
      const uri = this.#uris[a[p]!]!;
      const local = this.#names[a[p + 1]!]!;
      const [start, end] = [a[p + 2]!, a[p + 3]!];
      out[uri === '' ? local : `{${uri}}${local}`] = a[p + 4]
        ? this.#src.slice(start, end)
        : decodeAttribute(this.#src, start, end);
    }
    return out;
  }

  /**
   * The value of a plain int of at most nine digits (with an optional minus) read straight from the
   * bytes, or undefined when the text is anything else and needs the full lexical rules.
   */
  smallInt(el: number): number | undefined {
    const at = el * STRIDE;
    if ((this.#e[at + F_FLAGS]! & FLAG_MIXED) !== 0) return undefined;
    const b = this.#src.bytes;
    let i = this.#e[at + F_CONTENT_START]!;
    const end = this.#e[at + F_CONTENT_END]!;
    const negative = b[i] === 0x2d;
    if (negative) i++;
    if (i === end || end - i > 9) return undefined;
    let n = 0;
    for (; i < end; i++) {
      const d = b[i]! - 0x30;
      if (d < 0 || d > 9) return undefined;
      n = n * 10 + d;
    }
    return negative ? (n === 0 ? 0 : -n) : n;
  }

  /** `true` or `false` read straight from the bytes, or undefined for any other text. */
  plainBoolean(el: number): boolean | undefined {
    const at = el * STRIDE;
    if ((this.#e[at + F_FLAGS]! & FLAG_MIXED) !== 0) return undefined;
    const b = this.#src.bytes;
    const i = this.#e[at + F_CONTENT_START]!;
    const len = this.#e[at + F_CONTENT_END]! - i;
    if (len === 4 && b[i] === 0x74 && b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65)
      return true;
    if (
      len === 5 &&
      b[i] === 0x66 &&
      b[i + 1] === 0x61 &&
      b[i + 2] === 0x6c &&
      b[i + 3] === 0x73 &&
      b[i + 4] === 0x65
    )
      return false;
    return undefined;
  }

  /** The element and its descendants as XmlElement objects, for code that wants a tree (small documents). */
  element(el = 0): XmlElement {
    const children = this.children(el).map((c) => this.element(c));
    return {
      name: this.name(el),
      ns: this.ns(el),
      children,
      text: this.text(el),
      nil: this.nil(el),
      attributes: this.attributes(el),
    };
  }
}
