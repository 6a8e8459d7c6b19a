// Replay protection: a (APIKey, Operation, Timestamp) triple is accepted once inside the window.

export interface ReplayStore {
  /** Records the key; returns true when it was already recorded and has not expired. */
  seen(key: string, expiresAtMs: number, nowMs: number): boolean | Promise<boolean>;
}

/** In-memory store, bounded: expired entries are swept as new ones arrive. */
export class MemoryReplayStore implements ReplayStore {
  readonly #entries = new Map<string, number>();
  constructor(private readonly maxEntries = 200_000) {}

  seen(key: string, expiresAtMs: number, nowMs: number): boolean {
    const hit = this.#entries.get(key);
    if (hit !== undefined && hit > nowMs) return true;
    if (this.#entries.size >= this.maxEntries) this.#sweep(nowMs);
    this.#entries.set(key, expiresAtMs);
    return false;
  }

  #sweep(nowMs: number): void {
    for (const [k, exp] of this.#entries) if (exp <= nowMs) this.#entries.delete(k);
    // Still full of live entries: drop the oldest (insertion order) rather than grow without bound.
    for (const k of this.#entries.keys()) {
      if (this.#entries.size < this.maxEntries) break;
      this.#entries.delete(k);
    }
  }
}
