// Replay protection: a (APIKey, Operation, Timestamp) triple is accepted once inside the window.

export interface ReplayStore {
  /** Records the key; returns true when it was already recorded and has not expired. */
  seen(key: string, expiresAtMs: number, nowMs: number): boolean | Promise<boolean>;
}

/**
 * In-memory store, bounded. Entries arrive in roughly the order they expire, so they are kept in
 * arrival order in a ring beside the lookup table: expired ones leave from its front as new ones
 * arrive, and when it is full the oldest live one goes. Constant work per arrival, full or not
 * (a sweep that walked the table from its start cost more than a whole request once 200,000
 * entries had turned over: deleted slots stay in a Map until it is rebuilt). The default
 * holds 200,000 entries: ten minutes of full protection at 330 requests a second; beyond that the
 * oldest entries go first.
 */
export class MemoryReplayStore implements ReplayStore {
  readonly #entries = new Map<string, number>();
  /** Keys in arrival order and the expiry each had then: a ring of `maxEntries` places. */
  readonly #keys: (string | undefined)[] = [];
  readonly #expiries: number[] = [];
  #head = 0;
  #count = 0;
  constructor(private readonly maxEntries = 200_000) {}

  seen(key: string, expiresAtMs: number, nowMs: number): boolean {
    const hit = this.#entries.get(key);
    if (hit !== undefined && hit > nowMs) return true;
    while (this.#count > 0 && this.#expiries[this.#head]! <= nowMs) this.#dropOldest();
    if (this.#count >= this.maxEntries) this.#dropOldest();
    // An expired key arriving again gets a new place; its old one no longer speaks for it.
    this.#entries.set(key, expiresAtMs);
    const at = (this.#head + this.#count) % this.maxEntries;
    this.#keys[at] = key;
    this.#expiries[at] = expiresAtMs;
    this.#count++;
    return false;
  }

  #dropOldest(): void {
    const key = this.#keys[this.#head]!;
    // Only if the table still holds this place's entry (not a later arrival of the same key).
    if (this.#entries.get(key) === this.#expiries[this.#head]) this.#entries.delete(key);
    this.#keys[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.maxEntries;
    this.#count--;
  }

  get size(): number {
    return this.#entries.size;
  }
}
