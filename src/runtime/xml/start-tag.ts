// Start tags for the scanner: attributes, namespace declarations and their scope, xsi:nil, and the
// element's slot. An element's namespace is resolved once per name while no declaration changes
// the scope (SOAP documents declare namespaces on their first few elements only).
import { XSI_NS } from './dom.js';
import { FLAG_MIXED, FLAG_NIL } from './document.js';
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
} from './slots.js';
import { XmlParseError } from './errors.js';
import type { QName } from './names.js';
import type { Scanner } from './scan.js';
import { decodeAttribute, readReference } from './text.js';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;

/** Unique across documents, so a QName's cached namespace is never taken from another scope. */
let versions = 0;

export class StartTag {
  /** The document's namespace URIs (its own array: the document keeps it). */
  uris: string[] = ['', XML_NS];
  /** Numbers of the URIs, once there are more than a few (a SOAP message has three or four). */
  #uriIds: Map<string, number> | undefined;
  /** In-scope bindings: for each prefix, the URI numbers of its declarations, innermost last. */
  readonly #bindings = new Map<string, number[]>();
  /** Prefixes in the order they were declared, so an element's end drops its own. */
  readonly #declaredPrefixes: string[] = [];
  #version = ++versions;
  // The attributes of the tag being read.
  readonly #names: QName[] = [];
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #plain: boolean[] = [];

  constructor(private readonly s: Scanner) {}

  /** Ready for another document. */
  reset(): void {
    this.uris = ['', XML_NS];
    this.#uriIds = undefined;
    this.#bindings.clear();
    this.#declaredPrefixes.length = 0;
    this.#version = ++versions;
  }

  #uriId(uri: string, add: boolean): number | undefined {
    let id = this.#uriIds ? this.#uriIds.get(uri) : this.uris.indexOf(uri);
    if ((id === undefined || id < 0) && add) {
      id = this.uris.push(uri) - 1;
      if (this.#uriIds) this.#uriIds.set(uri, id);
      else if (this.uris.length > 8) this.#uriIds = new Map(this.uris.map((u, k) => [u, k]));
    }
    return id === undefined || id < 0 ? undefined : id;
  }

  /** The start tag (or empty-element tag) at `s.i`. */
  read(): void {
    const s = this.s;
    const b = s.b;
    const at = s.i;
    const q = s.readName(at + 1);
    let i = s.i;
    let count = 0;
    let declares = false;
    let empty = false;
    for (;;) {
      const c = b[i];
      if (c === 0x3e) {
        i++;
        break;
      }
      if (c === 0x2f && b[i + 1] === 0x3e) {
        i += 2;
        empty = true;
        break;
      }
      if (!isSpace(c))
        throw s.fail(
          i,
          i >= s.len
            ? `unterminated start tag <${q.qname}>`
            : 'expected whitespace, ">" or "/>" in a start tag',
        );
      do i++;
      while (isSpace(b[i]));
      if (b[i] === 0x3e || b[i] === 0x2f) continue;
      const a = s.readName(i);
      i = this.#value(s.i, count, a);
      if (a.prefix === 'xmlns' || a.qname === 'xmlns') declares = true;
      count++;
    }
    s.i = i;
    this.#open(q, at, count, declares, empty);
  }

  /** Reads `= "value"` from `i` for attribute number `k`; returns the index after the closing quote. */
  #value(from: number, k: number, a: QName): number {
    const s = this.s;
    const b = s.b;
    let i = from;
    while (isSpace(b[i])) i++;
    if (b[i] !== 0x3d) throw s.fail(i, `expected "=" after the attribute name ${a.qname}`);
    do i++;
    while (isSpace(b[i]));
    const quote = b[i];
    if (quote !== 0x22 && quote !== 0x27) throw s.fail(i, 'expected a quoted attribute value');
    const start = ++i;
    let plain = true;
    for (;;) {
      const x = b[i];
      if (x === quote) break;
      if (i >= s.len) throw s.fail(start, 'unterminated attribute value');
      if (x === 0x3c) throw s.fail(i, '"<" is not allowed in an attribute value');
      if (x === 0x26) {
        const r = readReference(s.src, i);
        if (typeof r === 'string') throw s.fail(i, r);
        plain = false;
        i = r.end;
        continue;
      }
      if (x! < 0x20) {
        if (x === 0x09 || x === 0x0a || x === 0x0d) plain = false;
        else throw s.badChar(i);
      } else if (x === 0xef && b[i + 1] === 0xbf && (b[i + 2] === 0xbe || b[i + 2] === 0xbf))
        throw s.badChar(i);
      i++;
    }
    this.#names[k] = a;
    this.#starts[k] = start;
    this.#ends[k] = i;
    this.#plain[k] = plain;
    return i + 1;
  }

  #text(k: number): string {
    const src = this.s.src;
    return this.#plain[k]
      ? src.slice(this.#starts[k]!, this.#ends[k]!)
      : decodeAttribute(src, this.#starts[k]!, this.#ends[k]!);
  }

  #open(q: QName, at: number, count: number, declares: boolean, empty: boolean): void {
    const s = this.s;
    const slots = s.slots;
    if (slots.count >= s.options.maxElements)
      throw new XmlParseError('limit', `more than ${s.options.maxElements} elements`);
    if (s.depth >= s.options.maxDepth)
      throw new XmlParseError('limit', `nesting deeper than ${s.options.maxDepth} elements`);
    if (count > 1) this.#checkDuplicates(count, at);
    const declared = declares ? this.#declare(count, at) : 0;
    if (q.prefix === 'xmlns') throw s.fail(at, 'an element cannot have the prefix xmlns');
    let ns = q.nsId;
    if (q.scopeVersion !== this.#version) {
      q.nsId = ns = this.#resolve(q.prefix, at);
      q.scopeVersion = this.#version;
    }
    const slot = slots.add();
    const el = slot / STRIDE;
    const e = slots.e;
    e[slot + F_FLAGS] = count > declared ? this.#attributes(slot, count, declared, at) : 0;
    e[slot + F_NAME] = s.nameId(q);
    e[slot + F_NS] = ns;
    e[slot + F_NEXT] = -1;
    e[slot + F_CONTENT_START] = e[slot + F_CONTENT_END] = s.i;
    const d = s.depth;
    if (d > 0) {
      const parent = s.openEl[d - 1]!;
      e[slot + F_PARENT] = parent;
      e[parent * STRIDE + F_FLAGS]! |= FLAG_MIXED;
      const previous = s.lastChild[d]!;
      if (previous >= 0) e[previous * STRIDE + F_NEXT] = el;
    } else e[slot + F_PARENT] = -1;
    s.lastChild[d] = el;
    if (empty) return this.closeScope(declared);
    s.openEl[d] = el;
    s.openName[d] = q;
    s.declared[d] = declared;
    s.lastChild[d + 1] = -1;
    s.depth = d + 1;
  }

  #checkDuplicates(count: number, at: number): void {
    const seen = new Set<string>();
    for (let k = 0; k < count; k++) {
      const name = this.#names[k]!.qname;
      if (seen.has(name)) throw this.s.fail(at, `duplicate attribute ${name}`);
      seen.add(name);
    }
  }

  /** Pushes the tag's namespace declarations; returns how many. */
  #declare(count: number, at: number): number {
    let n = 0;
    for (let k = 0; k < count; k++) {
      const a = this.#names[k]!;
      if (a.qname !== 'xmlns' && a.prefix !== 'xmlns') continue;
      const prefix = a.qname === 'xmlns' ? '' : a.local;
      const uri = this.#text(k).trim(); // as saxes and libxml2 read it
      const problem =
        prefix === 'xmlns'
          ? 'the prefix xmlns cannot be declared'
          : (prefix === 'xml') !== (uri === XML_NS)
            ? `only the prefix xml is bound to ${XML_NS}`
            : uri === XMLNS_NS
              ? `${XMLNS_NS} cannot be declared`
              : prefix !== '' && uri === ''
                ? `xmlns:${prefix}="" is not allowed in XML 1.0`
                : undefined;
      if (problem !== undefined) throw this.s.fail(at, problem);
      const stack = this.#bindings.get(prefix);
      if (stack) stack.push(this.#uriId(uri, true)!);
      else this.#bindings.set(prefix, [this.#uriId(uri, true)!]);
      this.#declaredPrefixes.push(prefix);
      n++;
    }
    this.#version = ++versions;
    return n;
  }

  /** Drops the declarations an element made, when it ends. */
  closeScope(declared: number): void {
    if (declared === 0) return;
    for (let k = 0; k < declared; k++) this.#bindings.get(this.#declaredPrefixes.pop()!)!.pop();
    this.#version = ++versions;
  }

  #resolve(prefix: string, at: number): number {
    // A map, not a scan of every declaration in scope: 30,000 declarations on one element would
    // otherwise make each differently named element below it cost 30,000 comparisons.
    const stack = this.#bindings.get(prefix);
    if (stack !== undefined && stack.length > 0) return stack[stack.length - 1]!;
    if (prefix === '') return 0;
    if (prefix === 'xml') return 1;
    throw this.s.fail(at, `namespace prefix ${prefix} is not declared`);
  }

  /** Records the attributes other than declarations; returns FLAG_NIL for a true xsi:nil or nil. */
  #attributes(slot: number, count: number, declared: number, at: number): number {
    const s = this.s;
    const slots = s.slots;
    const n = count - declared;
    const base = slots.reserveAttributes(1 + 5 * n);
    const out = slots.attrs;
    out[base] = n;
    slots.e[slot + F_ATTRS] = base + 1;
    const xsi = this.#uriId(XSI_NS, false);
    // Two prefixes bound to one namespace can still name one attribute twice. Compared pairwise
    // for the usual few attributes; a set past that, so a tag of 100,000 attributes stays linear.
    const seen = n > 16 ? new Set<string>() : undefined;
    let flags = 0;
    let p = base + 1;
    for (let k = 0; k < count; k++) {
      const a = this.#names[k]!;
      if (a.qname === 'xmlns' || a.prefix === 'xmlns') continue;
      const uri = a.prefix === '' ? 0 : this.#resolve(a.prefix, at);
      const name = s.nameId(a);
      // By local name: p:z and q:z are two QNames but one attribute when p and q name one namespace.
      const twice = seen
        ? seen.size === seen.add(`${uri} ${a.local}`).size
        : this.#pairSeen(out, base + 1, p, uri, a.local);
      if (twice) throw s.fail(at, `duplicate attribute {${this.uris[uri]}}${a.local}`);
      out[p] = uri;
      out[p + 1] = name;
      out[p + 2] = this.#starts[k]!;
      out[p + 3] = this.#ends[k]!;
      out[p + 4] = this.#plain[k] ? 1 : 0;
      p += 5;
      if (a.local === 'nil' && (uri === 0 || uri === xsi) && this.#isTrue(k)) flags = FLAG_NIL;
    }
    return flags;
  }

  #pairSeen(out: Int32Array, from: number, to: number, uri: number, local: string): boolean {
    const names = this.s.names;
    for (let q = from; q < to; q += 5)
      if (out[q] === uri && names[out[q + 1]!] === local) return true;
    return false;
  }

  /** Whether attribute `k` says true: `true` or `1`. */
  #isTrue(k: number): boolean {
    const b = this.s.b;
    const i = this.#starts[k]!;
    const len = this.#ends[k]! - i;
    if (!this.#plain[k]) return ['true', '1'].includes(this.#text(k));
    return (
      (len === 1 && b[i] === 0x31) ||
      (len === 4 && b[i] === 0x74 && b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65)
    );
  }
}
