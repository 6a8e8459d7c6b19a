// The growable typed arrays behind an ElementTable: typed arrays hold no pointers, so a table of
// 800,000 elements costs the garbage collector nothing to keep.
import type { ElementTable } from './document.js';

export class ElementSlots {
  count = 0;
  name: Int32Array;
  ns: Int32Array;
  parent: Int32Array;
  next: Int32Array;
  contentStart: Int32Array;
  contentEnd: Int32Array;
  flags: Uint8Array;
  /** Per element: 0, or 1 + where its attributes start in `attrs`. */
  attrAt: Int32Array;
  /** Attributes other than namespace declarations: [count, then uri, name, valueStart, valueEnd, plain per attribute]. */
  attrs = new Int32Array(64);
  attrLength = 0;

  constructor(capacity: number) {
    this.name = new Int32Array(capacity);
    this.ns = new Int32Array(capacity);
    this.parent = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.contentStart = new Int32Array(capacity);
    this.contentEnd = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.attrAt = new Int32Array(capacity);
  }

  /** Room for `n` more numbers in the attribute stream; returns where they go. */
  reserveAttributes(n: number): number {
    const at = this.attrLength;
    if (at + n > this.attrs.length) {
      const bigger = new Int32Array(Math.max(this.attrs.length * 2, at + n));
      bigger.set(this.attrs);
      this.attrs = bigger;
    }
    this.attrLength = at + n;
    return at;
  }

  /** A new slot (its fields still to be set). */
  add(): number {
    if (this.count === this.name.length) this.grow();
    return this.count++;
  }

  private grow(): void {
    const cap = this.name.length * 2;
    const bigger = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(cap);
      b.set(a);
      return b;
    };
    this.name = bigger(this.name);
    this.ns = bigger(this.ns);
    this.parent = bigger(this.parent);
    this.next = bigger(this.next);
    this.contentStart = bigger(this.contentStart);
    this.contentEnd = bigger(this.contentEnd);
    this.flags = bigger(this.flags);
    this.attrAt = bigger(this.attrAt);
  }

  table(names: readonly string[], uris: readonly string[]): ElementTable {
    const { count, name, ns, parent, next, contentStart, contentEnd, flags, attrAt, attrs } = this;
    return { count, name, ns, parent, next, contentStart, contentEnd, flags, attrAt, attrs, names, uris };
  }
}
