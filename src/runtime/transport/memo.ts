// A bounded cache for per-request values that depend on a few request strings (the Host header,
// the namespace and operation): each computed once per distinct key. Keys come from clients, so
// the table is emptied when full rather than allowed to grow; a client sending endless distinct
// values gets no worse than computing each one.
export class BoundedCache<V> {
  readonly #table = new Map<string, V>();
  constructor(private readonly maxEntries = 256) {}

  /** The value held for `key`, or `compute()`'s, then held. */
  get(key: string, compute: () => V): V {
    let v = this.#table.get(key);
    if (v === undefined) {
      if (this.#table.size >= this.maxEntries) this.#table.clear();
      v = compute();
      this.#table.set(key, v);
    }
    return v;
  }
}
