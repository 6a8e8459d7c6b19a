// The element table behind an XmlDocument: one Int32Array with eight numbers per element (one
// allocation per document; typed arrays hold no pointers, so a table of 800,000 elements costs the
// garbage collector nothing to keep), and a stream of attributes.

/** Fields of an element, at `el * STRIDE + field`. */
export const F_NAME = 0;
export const F_NS = 1;
export const F_PARENT = 2;
export const F_NEXT = 3;
export const F_CONTENT_START = 4;
export const F_CONTENT_END = 5;
export const F_FLAGS = 6;
/** 0, or 1 + where the element's attributes start in the attribute stream. */
export const F_ATTRS = 7;
export const STRIDE = 8;

/** What an XmlDocument reads. */
export interface ElementTable {
  readonly count: number;
  readonly e: Int32Array;
  /** Attributes other than namespace declarations: [count, then uri, name, valueStart, valueEnd, plain per attribute]. */
  readonly attrs: Int32Array;
  readonly names: readonly string[];
  readonly uris: readonly string[];
}

// A small document's table (a request: a few dozen elements) is a view on a shared 8 KiB buffer,
// as Node's Buffer.from takes small buffers from a pool: a typed array of its own costs an
// ArrayBuffer allocation each, several times the cost of a view, and more under load. Views are carved, never reused, so a document keeps its table as long as it lives; a
// live document holds at most its pool's 8 KiB.
const POOL_BYTES = 8 * 1024;
const POOLED_MAX_BYTES = 1024;
let pool = new ArrayBuffer(POOL_BYTES);
let poolAt = 0;

function int32s(length: number): Int32Array<ArrayBuffer> {
  const bytes = length * 4;
  if (bytes > POOLED_MAX_BYTES) return new Int32Array(length);
  if (poolAt + bytes > POOL_BYTES) {
    pool = new ArrayBuffer(POOL_BYTES);
    poolAt = 0;
  }
  const view = new Int32Array(pool, poolAt, length);
  poolAt += bytes;
  return view;
}

export class ElementSlots {
  count = 0;
  e: Int32Array<ArrayBuffer>;
  attrs: Int32Array<ArrayBuffer> = int32s(16);
  attrLength = 0;

  constructor(capacity: number) {
    this.e = int32s(capacity * STRIDE);
  }

  /** A new element slot (its fields still to be set); returns where its fields start. */
  add(): number {
    if ((this.count + 1) * STRIDE > this.e.length) this.e = grown(this.e, this.e.length * 2);
    return this.count++ * STRIDE;
  }

  /** Room for `n` more numbers in the attribute stream; returns where they go. */
  reserveAttributes(n: number): number {
    const at = this.attrLength;
    if (at + n > this.attrs.length)
      this.attrs = grown(this.attrs, Math.max(this.attrs.length * 2, at + n));
    this.attrLength = at + n;
    return at;
  }

  table(names: readonly string[], uris: readonly string[]): ElementTable {
    return { count: this.count, e: this.e, attrs: this.attrs, names, uris };
  }
}

function grown(a: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}
