// A small seeded PRNG (mulberry32): the same seed gives the same demo data on every machine.
const STEP = 0x6d2b79f5;

export class Rng {
  #state: number;
  /** A seed, or the `state` of another generator to go on from where it is. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  get state(): number {
    return this.#state;
  }
  /**
   * Moves on as `draws` calls of next() would, at once: the state is a counter that each draw
   * advances by the same step (mod 2^32), so a part of the data another thread draws can be
   * skipped here.
   */
  skip(draws: number): void {
    this.#state = (this.#state + Math.imul(draws, STEP)) >>> 0;
  }
  next(): number {
    let t = (this.#state = (this.#state + STEP) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** yyyy-MM-ddTHH:mm:ss for a UTC-free local time, computed without any time-zone conversion. */
export function localDateTime(
  base: { y: number; m: number; d: number },
  addDays: number,
  hour = 0,
  minute = 0,
): string {
  const t = new Date(Date.UTC(base.y, base.m - 1, base.d + addDays, hour, minute));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:00`;
}
