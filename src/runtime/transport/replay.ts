// Replay protection: a (APIKey, Operation, Timestamp) triple is accepted once inside the window.

export interface ReplayStore {
  /** Records the key; returns true when it was already recorded and has not expired. */
  seen(key: string, expiresAtMs: number, nowMs: number): boolean | Promise<boolean>;
}

/**
 * In-memory store, bounded. Entries arrive in roughly the order they expire, so when the store is
 * full it drops from the front (Map keeps insertion order): the expired ones, then, if still full,
 * the oldest live ones. Each arrival does a constant amount of work on average; scanning every
 * entry on each arrival once the store filled up made a loaded server slower with every request.
 * The default holds 200,000 entries: ten minutes of full protection at 330 requests a second;
 * beyond that the oldest entries go first.
 */
export class MemoryReplayStore implements ReplayStore {
  readonly #entries = new Map<string, number>();
  constructor(private readonly maxEntries = 200_000) {}

  seen(key: string, expiresAtMs: number, nowMs: number): boolean {
    const hit = this.#entries.get(key);
    if (hit !== undefined && hit > nowMs) return true;
    if (hit !== undefined) this.#entries.delete(key); // re-inserted below, at the back
    if (this.#entries.size >= this.maxEntries) this.#sweep(nowMs);
    this.#entries.set(key, expiresAtMs);
    return false;
  }

  #sweep(nowMs: number): void {
    for (const [k, exp] of this.#entries) {
      if (exp > nowMs && this.#entries.size < this.maxEntries) break;
      this.#entries.delete(k);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
