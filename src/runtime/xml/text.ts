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

/**
 * The reference starting with `&` at `i`: its text and the index after its `;`, or a string saying
 * what is wrong with it.
 */
export function readReference(src: Utf8Source, i: number): { text: string; end: number } | string {
  const b = src.bytes;
  const semi = b.indexOf(0x3b, i + 1);
  if (semi < 0 || semi - i > 12) return 'unterminated reference (a bare & must be written &amp;)';
  const body = src.slice(i + 1, semi);
  if (body.charCodeAt(0) === 0x23) {
    const m = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(body);
    const cp = m ? parseInt(m[1] ?? m[2]!, m[1] !== undefined ? 16 : 10) : -1;
    if (!isXmlChar(cp)) return `&${body}; is not a character allowed in XML`;
    return { text: String.fromCodePoint(cp), end: semi + 1 };
  }
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
