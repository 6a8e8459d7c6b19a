// The (APIKey, Operation, Timestamp) triples seen inside the clock window, to tell a client that
// sends one twice (a server refuses the second as a replay). Bounded: entries leave once outside
// the window, and the oldest leave first past `max`.
import type { AuthValues } from '@evgen/runtime';

export class TimestampMemory {
  /** Triple → the time its Timestamp stands for (ms); in insertion order, the oldest first. */
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly max = 100_000,
  ) {}

  /** Whether this API key sent this Operation and Timestamp before; remembers them. */
  repeated(v: Pick<AuthValues, 'APIKey' | 'Operation' | 'Timestamp'>, at: number): boolean {
    const key = `${v.APIKey}\u0000${v.Operation}\u0000${v.Timestamp}`;
    if (this.#seen.has(key)) return true;
    this.#forget(at);
    this.#seen.set(key, at);
    return false;
  }

  get size(): number {
    return this.#seen.size;
  }

  #forget(now: number): void {
    for (const [key, at] of this.#seen) {
      if (this.#seen.size < this.max && at > now - 2 * this.windowMs) break;
      this.#seen.delete(key);
    }
  }
}
