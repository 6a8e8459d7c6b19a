// Element and attribute names: byte classes for the scanner, and a bounded cache of the qualified
// names met so far, so that a document repeating a few dozen names decodes each of them once
// (a SOAP response of 10,000 bookings holds 800,000 elements but about 60 distinct names).

/** Bytes that may appear in a name: ASCII name characters, and every non-ASCII byte (checked on decoding). */
export const NAME_BYTE = new Uint8Array(256);
for (let b = 0; b < 256; b++)
  NAME_BYTE[b] = /[A-Za-z0-9_:.-]/.test(String.fromCharCode(b)) || b >= 0x80 ? 1 : 0;

// XML 1.0 (fifth edition) NameStartChar and NameChar, without ':' (an NCName of Namespaces in XML).
const START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NCNAME = new RegExp(
  `^[${START}][${START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040]*$`,
  'u',
);

/** A qualified name as met in the document, with per-document slots the scanner fills. */
export interface QName {
  readonly qname: string;
  readonly prefix: string;
  /** Internalised, so the generated decoders' `switch` compares it by identity. */
  readonly local: string;
  readonly bytes: Uint8Array;
  // The slots below belong to the running scan (one at a time: see scan.ts); a later scan
  // overwrites them, so they never carry meaning across documents.
  /** Scanner-owned: the document (stamp) this name last had an id in, and that id. */
  docStamp: number;
  docId: number;
  /** Scanner-owned: the namespace scope version its element namespace was resolved in, and the result. */
  scopeVersion: number;
  nsId: number;
}

/** The same characters as an internalised string: V8 keeps property keys internalised. */
const internalise = (s: string): string => Object.keys({ [s]: 0 })[0]!;

/** Why `qname` is not a QName of Namespaces in XML 1.0, or undefined when it is one. */
export function qnameProblem(qname: string): string | undefined {
  const parts = qname.split(':');
  if (parts.length > 2) return `"${qname}" has more than one colon`;
  if (parts.some((p) => !NCNAME.test(p))) return `"${qname}" is not a valid name`;
  return undefined;
}

const CACHE_LIMIT = 4096;
/** Shared by every scan in this thread; safe because scans never overlap (guarded in scan.ts). */
const cache = new Map<number, QName>();

function sameBytes(a: Uint8Array, b: Uint8Array, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[start + k]) return false;
  return true;
}

const cacheKey = (hash: number, length: number) => (hash ^ Math.imul(length, 0x9e3779b1)) | 0;

/** The QName held by bytes [start, end) whose FNV-1a hash is `hash`, if it was met before. */
export function cachedName(
  b: Uint8Array,
  start: number,
  end: number,
  hash: number,
): QName | undefined {
  const hit = cache.get(cacheKey(hash, end - start));
  return hit !== undefined && sameBytes(hit.bytes, b, start, end) ? hit : undefined;
}

/**
 * A name met for the first time: the QName, or what is wrong with it. The cache stays bounded
 * (it starts again when full), so a document of random names cannot grow it.
 */
export function newName(
  qname: string,
  b: Uint8Array,
  start: number,
  end: number,
  hash: number,
): QName | string {
  const problem = qnameProblem(qname);
  if (problem !== undefined) return problem;
  const colon = qname.indexOf(':');
  const q: QName = {
    qname,
    prefix: colon < 0 ? '' : qname.slice(0, colon),
    local: internalise(colon < 0 ? qname : qname.slice(colon + 1)),
    bytes: b.slice(start, end),
    docStamp: 0,
    docId: 0,
    scopeVersion: 0,
    nsId: 0,
  };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(cacheKey(hash, end - start), q);
  return q;
}
