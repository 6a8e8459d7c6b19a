// A map of at most `limit` entries that drops the least recently used first: the bound of every
// per-connection cache of the SQLite store (prepared statements, kept reads), so that no input
// can grow one. Entries are kept in use order by a list through them, so a hit moves two links
// and hashes its key once: moving it to the back of the Map (a delete and a set) hashed it three
// times and left a hole that made the Map rebuild its table every few hits.

interface Entry<V> {
  readonly key: string;
  value: V;
  /** The entry used next after this one (undefined: this is the most recently used). */
  newer: Entry<V> | undefined;
  /** The entry used last before this one (undefined: this is the least recently used). */
  older: Entry<V> | undefined;
}

export class Lru<V> {
  readonly #entries = new Map<string, Entry<V>>();
  #newest: Entry<V> | undefined;
  #oldest: Entry<V> | undefined;
  constructor(readonly limit: number) {}

  /** The value under `key`, now the most recently used; undefined when there is none. */
  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    this.#touch(e);
    return e.value;
  }

  set(key: string, value: V): void {
    const e = this.#entries.get(key);
    if (e !== undefined) {
      e.value = value;
      return this.#touch(e);
    }
    if (this.#entries.size >= this.limit) this.#drop(this.#oldest!);
    const added: Entry<V> = { key, value, newer: undefined, older: this.#newest };
    if (this.#newest === undefined) this.#oldest = added;
    else this.#newest.newer = added;
    this.#newest = added;
    this.#entries.set(key, added);
  }

  delete(key: string): void {
    const e = this.#entries.get(key);
    if (e !== undefined) this.#drop(e);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Keys from the least recently used to the most (tests). */
  keys(): string[] {
    const out: string[] = [];
    for (let e = this.#oldest; e !== undefined; e = e.newer) out.push(e.key);
    return out;
  }

  /** Makes `e` the most recently used. */
  #touch(e: Entry<V>): void {
    if (e === this.#newest) return;
    this.#unlink(e);
    e.older = this.#newest;
    e.newer = undefined;
    this.#newest!.newer = e;
    this.#newest = e;
  }

  #unlink(e: Entry<V>): void {
    if (e.newer === undefined) this.#newest = e.older;
    else e.newer.older = e.older;
    if (e.older === undefined) this.#oldest = e.newer;
    else e.older.newer = e.newer;
  }

  #drop(e: Entry<V>): void {
    this.#unlink(e);
    this.#entries.delete(e.key);
  }
}
