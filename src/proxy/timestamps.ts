// The (APIKey, Operation, Timestamp) triples seen inside the clock window, to tell a client that
// sends one twice (a server refuses the second as a replay). Bounded: entries leave once outside
// the window, the oldest leave first past `max`, and each is kept as a digest of fixed size, however
// long the API key or Operation a client sent.
import { createHash } from 'node:crypto';
import type { AuthValues } from '@evgen/runtime';

/** What is kept of a triple: its digest, 44 characters whatever the lengths of its parts. */
export const tripleKey = (v: Pick<AuthValues, 'APIKey' | 'Operation' | 'Timestamp'>): string =>
  createHash('sha256')
    .update(`${v.APIKey}\u0000${v.Operation}\u0000${v.Timestamp}`)
    .digest('base64');

export class TimestampMemory {
  /** Triple → the time its Timestamp stands for (ms); in insertion order, the oldest first. */
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly max = 100_000,
  ) {}

  /** Whether this API key sent this Operation and Timestamp before; remembers them. */
  repeated(v: Pick<AuthValues, 'APIKey' | 'Operation' | 'Timestamp'>, at: number): boolean {
    const key = tripleKey(v);
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
