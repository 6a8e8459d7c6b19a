// The scanner: one pass over UTF-8 bytes that checks well-formedness (XML 1.0) and namespaces
// (Namespaces in XML 1.0), refuses DTDs and processing instructions, enforces the depth and
// element limits, and records every element in an ElementTable. SOAP needs this subset of XML
// only, and a pass written for it runs several times faster than a general SAX parser (the decode
// rows of npm run bench); test/unit/runtime/xml-differential.test.ts holds it to saxes.
import { FLAG_MIXED } from './document.js';
import { XmlParseError } from './errors.js';
import { NAME_BYTE, cachedName, newName, type QName } from './names.js';
import { readReference, type Utf8Source } from './text.js';
import { ElementSlots, F_CONTENT_END, F_FLAGS, STRIDE, type ElementTable } from './slots.js';
import { StartTag } from './start-tag.js';
import { encodeUtf8 } from './utf8.js';

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SLASH = 0x2f;
const RSQB = 0x5d;
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;

const XML_OPEN = encodeUtf8('<?xml');
const CDATA_OPEN = encodeUtf8('[CDATA[');
const DOCTYPE = encodeUtf8('DOCTYPE');
// The declarations clients send nearly always, byte for byte: matched without reading the
// declaration as a string and through the regular expression (a visible share of a small request).
const COMMON_DECLARATIONS = [
  encodeUtf8('<?xml version="1.0" encoding="utf-8"?>'),
  encodeUtf8('<?xml version="1.0" encoding="UTF-8"?>'),
  encodeUtf8("<?xml version='1.0' encoding='utf-8'?>"),
];

/** The length of the common declaration at `at`, or 0. */
function commonDeclaration(b: Uint8Array, at: number): number {
  for (const d of COMMON_DECLARATIONS) if (startsWith(b, at, d)) return d.length;
  return 0;
}

/** Whether the bytes at `at` are `literal`'s (the scanner's one way to compare markup). */
function startsWith(b: Uint8Array, at: number, literal: Uint8Array): boolean {
  if (at + literal.length > b.length) return false;
  for (let k = 0; k < literal.length; k++) if (b[at + k] !== literal[k]) return false;
  return true;
}

export interface ScanOptions {
  readonly maxDepth: number;
  readonly maxElements: number;
  readonly maxNames: number;
  /** Refuse an XML declaration naming another encoding than UTF-8 (bytes input). */
  readonly checkEncoding: boolean;
}

// Module state, and the contract it relies on. A scan is synchronous from start to end: it neither
// awaits nor calls out of the runtime (its Utf8Source is the runtime's own), so one thread never has
// two scans open at once (a Worker loads its own copy of this module). That makes it safe to share between
// documents: `scanner` (reused: setting one up cost as much as scanning a request), `stamps`, and
// the QName cache of names.ts, whose entries carry slots that only the running scan may write
// (docStamp/docId, scopeVersion/nsId). `scanning` guards the contract: a scan started while another
// is open throws instead of writing over the open one's slots.
let stamps = 0;
let scanner: Scanner | undefined;
let scanning = false;

/** Reads and checks a whole document into its element table, or throws XmlParseError. */
export function scanDocument(src: Utf8Source, options: ScanOptions): ElementTable {
  if (scanning)
    throw new Error(
      'a document is being scanned already: the scanner is single-threaded, and scanning must not start another scan',
    );
  scanning = true;
  const s = (scanner ??= new Scanner());
  try {
    return s.run(src, options);
  } finally {
    s.release();
    scanning = false;
  }
}

/** The bytes a scanner holds between documents: none of the last one's, and no allocation. */
const NO_BYTES = new Uint8Array(0);

export class Scanner {
  b: Uint8Array = NO_BYTES;
  len = 0;
  i = 0;
  src!: Utf8Source;
  options!: ScanOptions;
  slots!: ElementSlots;
  stamp = 0;
  names: string[] = [];
  /** Names this document brought that the name cache did not hold (bounded by maxNames). */
  newNames = 0;
  // Open elements by depth: the element, its name, and how many namespace declarations it made.
  depth = 0;
  readonly openEl: number[] = [];
  readonly openName: QName[] = [];
  readonly declared: number[] = [];
  readonly lastChild: number[] = [-1];
  readonly tag = new StartTag(this);

  /** Drops what belongs to the last document, so a reused scanner holds none of it. */
  release(): void {
    this.b = NO_BYTES;
    this.src = undefined as unknown as Utf8Source;
    this.slots = undefined as unknown as ElementSlots;
    this.names = [];
    this.openName.length = 0;
    this.tag.reset();
  }

  /** A syntax error at byte `at`, with its line and column. */
  fail(at: number, message: string): XmlParseError {
    const before = this.b.subarray(0, Math.min(at, this.len));
    const lineStart = before.lastIndexOf(0x0a) + 1;
    let line = 1;
    for (let k = 0; k < lineStart; k++) if (before[k] === 0x0a) line++;
    const column = [...this.src.slice(lineStart, before.length)].length + 1;
    return new XmlParseError('syntax', `malformed XML: ${line}:${column}: ${message}`);
  }

  badChar(at: number): XmlParseError {
    return this.fail(
      at,
      `character U+${this.src
        .slice(at, at + 3)
        .codePointAt(0)!
        .toString(16)
        .toUpperCase()
        .padStart(4, '0')} is not allowed in XML`,
    );
  }

  run(src: Utf8Source, options: ScanOptions): ElementTable {
    this.src = src;
    this.options = options;
    this.b = src.bytes;
    this.len = src.bytes.length;
    this.i = 0;
    this.newNames = 0;
    this.depth = 0;
    this.lastChild[0] = -1;
    this.stamp = ++stamps;
    this.slots = new ElementSlots(Math.max(16, this.len >> 5));
    this.prolog();
    this.tag.read();
    while (this.depth > 0) {
      this.text();
      if (this.i >= this.len)
        throw this.fail(this.i, `<${this.openName[this.depth - 1]!.qname}> is not closed`);
      const c = this.b[this.i + 1];
      if (c === SLASH) this.endTag();
      else if (c === 0x21) this.bang(true);
      else if (c === 0x3f) this.pi();
      else this.tag.read();
    }
    this.misc('after the root element');
    return this.slots.table(this.names, this.tag.uris);
  }

  /** Per-document number of a name's local part. */
  nameId(q: QName): number {
    if (q.docStamp !== this.stamp) {
      q.docStamp = this.stamp;
      q.docId = this.names.push(q.local) - 1;
    }
    return q.docId;
  }

  /** The name starting at `i` (checked when first met), leaving `this.i` after it. */
  readName(start: number): QName {
    const b = this.b;
    let i = start;
    let h = 0x811c9dc5;
    while (i < this.len && NAME_BYTE[b[i]!] === 1) h = Math.imul(h ^ b[i++]!, 0x01000193);
    if (i === start) throw this.fail(start, 'expected a name');
    this.i = i;
    const q = cachedName(b, start, i, h) ?? this.newName(start, i, h);
    if (typeof q === 'string') throw this.fail(start, q);
    return q;
  }

  newName(start: number, end: number, hash: number): QName | string {
    if (++this.newNames > this.options.maxNames)
      throw new XmlParseError(
        'limit',
        `document has more than ${this.options.maxNames} distinct names (limit)`,
      );
    return newName(this.src.slice(start, end), this.b, start, end, hash);
  }

  /** Character data up to the next `<`; references are checked here and decoded when read. */
  text(): void {
    const b = this.b;
    const len = this.len;
    let i = this.i;
    let mixed = false;
    while (i < len) {
      const c = b[i]!;
      if (c > RSQB) {
        if (c === 0xef && b[i + 1] === 0xbf && (b[i + 2] === 0xbe || b[i + 2] === 0xbf))
          throw this.badChar(i);
      } else if (c === LT) break;
      else if (c < 0x20) {
        if (c === 0x0d) mixed = true;
        else if (c !== 0x0a && c !== 0x09) throw this.badChar(i);
      } else if (c === AMP) {
        const r = readReference(this.src, i);
        if (typeof r === 'string') throw this.fail(i, r);
        mixed = true;
        i = r.end;
        continue;
      } else if (c === RSQB && b[i + 1] === RSQB && b[i + 2] === GT)
        throw this.fail(i, '"]]>" is not allowed in text');
      i++;
    }
    if (mixed) this.slots.e[this.openEl[this.depth - 1]! * STRIDE + F_FLAGS]! |= FLAG_MIXED;
    this.i = i;
  }

  endTag(): void {
    const b = this.b;
    const q = this.openName[this.depth - 1]!;
    const start = this.i + 2;
    let i = start;
    for (let k = 0; k < q.bytes.length; k++, i++)
      if (b[i] !== q.bytes[k]) throw this.fail(this.i, `the end tag does not close <${q.qname}>`);
    if (NAME_BYTE[b[i]!] === 1) throw this.fail(this.i, `the end tag does not close <${q.qname}>`);
    while (isSpace(b[i])) i++;
    if (b[i] !== GT) throw this.fail(i, 'expected ">" to end the end tag');
    const el = this.openEl[this.depth - 1]!;
    this.slots.e[el * STRIDE + F_CONTENT_END] = this.i;
    this.tag.closeScope(this.declared[this.depth - 1]!);
    this.depth--;
    this.i = i + 1;
  }

  /** `<!--`, `<![CDATA[` (inside the root only) or `<!DOCTYPE` at `this.i`. */
  bang(inRoot: boolean): void {
    const i = this.i;
    if (this.b[i + 2] === 0x2d && this.b[i + 3] === 0x2d) {
      const dashes = this.until(i + 4, 0x2d, 0x2d, 'comment');
      if (this.b[dashes + 2] !== GT)
        throw this.fail(dashes, '"--" is not allowed inside a comment');
      this.i = dashes + 3;
    } else if (inRoot && startsWith(this.b, i + 2, CDATA_OPEN)) {
      this.i = this.until(i + 9, RSQB, RSQB, 'CDATA section', GT) + 3;
    } else if (!inRoot && startsWith(this.b, i + 2, DOCTYPE)) {
      throw new XmlParseError(
        'doctype',
        'a DOCTYPE is not allowed (SOAP forbids DTDs; entities are never expanded)',
      );
    } else throw this.fail(i, 'expected a comment, CDATA section or element');
    if (inRoot) this.slots.e[this.openEl[this.depth - 1]! * STRIDE + F_FLAGS]! |= FLAG_MIXED;
  }

  /** Index of the first `a c` (followed by `then`, when given) from `start`, checking characters on the way. */
  until(start: number, a: number, c: number, what: string, then?: number): number {
    const b = this.b;
    for (let i = start; i < this.len; i++) {
      const x = b[i]!;
      if (x === a && b[i + 1] === c && (then === undefined || b[i + 2] === then)) return i;
      if (
        x < 0x20
          ? x !== 0x0a && x !== 0x09 && x !== 0x0d
          : x === 0xef && b[i + 1] === 0xbf && (b[i + 2] === 0xbe || b[i + 2] === 0xbf)
      )
        throw this.badChar(i);
    }
    throw this.fail(start, `unterminated ${what}`);
  }

  /** `<?` at `this.i`: only the XML declaration at the very start is allowed. */
  pi(): never {
    const q = this.readName(this.i + 2);
    if (q.qname.toLowerCase() === 'xml')
      throw this.fail(this.i, 'the XML declaration is allowed only at the start of the document');
    if (q.prefix !== '') throw this.fail(this.i, 'a processing instruction target has no colon');
    const after = this.b[this.i];
    if (!isSpace(after) && after !== 0x3f)
      throw this.fail(
        this.i,
        'expected whitespace or "?>" after the processing instruction target',
      );
    this.until(this.i, 0x3f, GT, 'processing instruction');
    throw new XmlParseError(
      'processing-instruction',
      `processing instruction <?${q.qname}?> is not allowed`,
    );
  }

  prolog(): void {
    const b = this.b;
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.i = 3;
    if (startsWith(b, this.i, XML_OPEN) && isSpace(b[this.i + 5])) {
      const common = commonDeclaration(b, this.i);
      if (common > 0) this.i += common;
      else this.declaration();
    }
    this.misc('before the root element');
    if (this.i >= this.len) throw this.fail(this.i, 'no root element');
  }

  /** Whitespace, comments and (refused) processing instructions; stops at an element or the end. */
  misc(where: string): void {
    const b = this.b;
    for (;;) {
      while (isSpace(b[this.i])) this.i++;
      if (this.i >= this.len) return;
      if (b[this.i] !== LT) throw this.fail(this.i, `text is not allowed ${where}`);
      const c = b[this.i + 1];
      if (c === 0x21) this.bang(false);
      else if (c === 0x3f) this.pi();
      else if (this.depth === 0 && this.slots.count > 0)
        throw this.fail(this.i, 'a document has one root element');
      else return;
    }
  }

  /** `<?xml version="1.0" encoding="…" standalone="…"?>`. */
  declaration(): void {
    const end = this.b.indexOf(GT, this.i);
    const text = end < 0 ? '' : this.src.slice(this.i, end + 1);
    // S is only space, tab, CR and LF (a JavaScript \s would also take U+00A0 and others).
    const m =
      /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\4)?[ \t\r\n]*\?>$/.exec(
        text,
      );
    if (!m) throw this.fail(this.i, 'malformed XML declaration');
    const encoding = m[3];
    if (this.options.checkEncoding && encoding !== undefined && !/^utf-?8$/i.test(encoding)) {
      throw new XmlParseError('encoding', `encoding ${encoding} is not supported; send UTF-8`);
    }
    this.i = end + 1;
  }
}
