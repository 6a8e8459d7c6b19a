// A small seeded PRNG (mulberry32): the same seed gives the same demo data on every machine.
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
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
