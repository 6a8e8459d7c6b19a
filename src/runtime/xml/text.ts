// Character data: references, line-end normalisation, attribute-value normalisation, and the
// direct text of an element whose content is more than one plain run. The scanner has already
// checked everything here, so these only decode.

/** The document's bytes and how to turn a range of them into a string. */
export interface Utf8Source {
  readonly bytes: Uint8Array;
  slice(start: number, end: number): string;
}

const LT = 0x3c;
const AMP = 0x26;
const CR = 0x0d;
const LF = 0x0a;

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/** Whether `cp` is a Char of XML 1.0. */
export const isXmlChar = (cp: number): boolean =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  (cp >= 0x10000 && cp <= 0x10ffff);

/** The value of ASCII digit `c` in base 10, or base 16 when `hex`; -1 when it is none. */
function digit(c: number | undefined, hex: boolean): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return hex && lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/**
 * The character reference `&#…;` or `&#x…;` at `i`. Its digits are read byte by byte, not cut at a
 * fixed length: XML 1.0 [66] allows any number of leading zeros (`&#0000000000000000009;` is a
 * tab), and each byte is looked at once, so a long one costs what its length does.
 */
function charReference(src: Utf8Source, i: number): { text: string; end: number } | string {
  const b = src.bytes;
  const hex = b[i + 2] === 0x78;
  const first = hex ? i + 3 : i + 2;
  let k = first;
  let cp = 0;
  for (let d = digit(b[k], hex); d >= 0; d = digit(b[++k], hex))
    if (cp <= 0x10ffff) cp = cp * (hex ? 16 : 10) + d; // past the last code point it stays past
  if (k === first || b[k] !== 0x3b)
    return 'malformed character reference: write &#digits; or &#xhex-digits; (a bare & must be written &amp;)';
  if (!isXmlChar(cp)) {
    const shown = k - i > 24 ? `${src.slice(i, i + 20)}…` : src.slice(i, k + 1);
    return `${shown} is not a character allowed in XML`;
  }
  return { text: String.fromCodePoint(cp), end: k + 1 };
}

/**
 * The reference starting with `&` at `i`: its text and the index after its `;`, or a string saying
 * what is wrong with it.
 */
export function readReference(src: Utf8Source, i: number): { text: string; end: number } | string {
  const b = src.bytes;
  if (b[i + 1] === 0x23) return charReference(src, i);
  const semi = b.indexOf(0x3b, i + 1);
  if (semi < 0 || semi - i > 12) return 'unterminated reference (a bare & must be written &amp;)';
  const body = src.slice(i + 1, semi);
  const text = PREDEFINED[body];
  if (text === undefined)
    return `undefined entity &${body}; (no DTD is read, so only &lt; &gt; &amp; &quot; &apos; exist)`;
  return { text, end: semi + 1 };
}

function reference(src: Utf8Source, i: number): { text: string; end: number } {
  const r = readReference(src, i);
  if (typeof r === 'string') throw new Error(`unchecked reference: ${r}`); // the scanner refused these
  return r;
}

/**
 * Character data of [start, end) with references resolved and line ends (CR LF, CR) read as LF; in
 * an attribute value every tab and line end is read as one space instead (attribute-value
 * normalisation, XML 1.0 §3.3.3). Characters that come from references are kept as they are.
 */
function decodeChars(src: Utf8Source, start: number, end: number, attribute: boolean): string {
  const b = src.bytes;
  let out = '';
  let run = start;
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c === AMP) {
      const r = reference(src, i);
      out += src.slice(run, i) + r.text;
      i = run = r.end;
    } else if (c === CR || (attribute && (c === LF || c === 0x09))) {
      out += src.slice(run, i) + (attribute ? ' ' : '\n');
      i = run = c === CR && b[i + 1] === LF ? i + 2 : i + 1;
    } else i++;
  }
  return out + src.slice(run, end);
}

export const decodeText = (src: Utf8Source, start: number, end: number): string =>
  decodeChars(src, start, end, false);
export const decodeAttribute = (src: Utf8Source, start: number, end: number): string =>
  decodeChars(src, start, end, true);

function find(b: Uint8Array, from: number, a: number, c: number, d: number): number {
  for (let i = from; i + 2 < b.length; i++)
    if (b[i] === a && b[i + 1] === c && b[i + 2] === d) return i;
  return -1;
}

/** Index after the start tag that begins at `i` (quoted attribute values may hold `>`), and whether it closes itself. */
function skipStartTag(b: Uint8Array, i: number): { end: number; empty: boolean } {
  let quote = 0;
  for (let k = i + 1; k < b.length; k++) {
    const c = b[k]!;
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return { end: k + 1, empty: b[k - 1] === 0x2f };
  }
  return { end: b.length, empty: true };
}

/** The direct character data of content [start, end): text runs and CDATA, not comments or child elements. */
export function collectText(src: Utf8Source, start: number, end: number): string {
  const b = src.bytes;
  let out = '';
  let depth = 0;
  let i = start;
  while (i < end) {
    if (b[i] !== LT) {
      let j = i;
      while (j < end && b[j] !== LT) j++;
      if (depth === 0) out += decodeText(src, i, j);
      i = j;
    } else if (b[i + 1] === 0x21) {
      const cdata = b[i + 2] === 0x5b;
      const close = cdata ? find(b, i + 9, 0x5d, 0x5d, 0x3e) : find(b, i + 4, 0x2d, 0x2d, 0x3e);
      if (cdata && depth === 0) out += src.slice(i + 9, close).replace(/\r\n?/g, '\n');
      i = close + 3;
    } else if (b[i + 1] === 0x2f) {
      depth--;
      i = b.indexOf(0x3e, i) + 1;
    } else {
      const tag = skipStartTag(b, i);
      if (!tag.empty) depth++;
      i = tag.end;
    }
  }
  return out;
}
