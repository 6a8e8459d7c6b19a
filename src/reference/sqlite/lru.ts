// A map of at most `limit` entries that drops the least recently used first: the bound of every
// per-connection cache of the SQLite store (prepared statements, kept reads), so that no input
// can grow one.
export class Lru<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly limit: number) {}

  /** The value under `key`, now the most recently used; undefined when there is none. */
  get(key: string): V | undefined {
    const v = this.#entries.get(key);
    if (v === undefined) return undefined;
    this.#entries.delete(key); // re-inserted at the back: most recently used
    this.#entries.set(key, v);
    return v;
  }

  set(key: string, value: V): void {
    if (!this.#entries.delete(key) && this.#entries.size >= this.limit)
      this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, value);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
