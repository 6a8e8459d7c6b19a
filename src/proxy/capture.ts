// Bounded copies of the bodies going through: each body is kept (the chunks themselves, not a
// copy) up to a per-body bound and only while the shared budget allows, so many concurrent or
// large bodies never make the proxy hold more than the budget; a body past either is forwarded
// all the same and reported unchecked.

/** Bytes all captures together may hold. */
export class Budget {
  #free: number;
  constructor(readonly bytes: number) {
    this.#free = bytes;
  }
  take(n: number): boolean {
    if (n > this.#free) return false;
    this.#free -= n;
    return true;
  }
  give(n: number): void {
    this.#free = Math.min(this.bytes, this.#free + n);
  }
  get free(): number {
    return this.#free;
  }
}

export type Uncaptured = 'over the check bound' | 'over the memory budget';

export class Capture {
  #chunks: Buffer[] = [];
  #held = 0;
  /** Every byte that went through. */
  total = 0;
  /** Why the body is not kept, once it is not. */
  dropped: Uncaptured | undefined;

  constructor(
    private readonly limit: number,
    private readonly budget: Budget,
  ) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.dropped) return;
    if (this.#held + chunk.length > this.limit) return this.#drop('over the check bound');
    if (!this.budget.take(chunk.length)) return this.#drop('over the memory budget');
    this.#chunks.push(chunk);
    this.#held += chunk.length;
  }

  /** The body, or undefined when it was not kept. */
  bytes(): Uint8Array | undefined {
    if (this.dropped) return undefined;
    return this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
  }

  /** Gives the budget back; the capture holds nothing afterwards. */
  release(): void {
    this.budget.give(this.#held);
    this.#held = 0;
    this.#chunks = [];
  }

  #drop(why: Uncaptured): void {
    this.dropped = why;
    this.release();
  }
}
