// Timing helpers: repeat a function until a minimum time has passed, several rounds, and report
// the median, so single hiccups on a noisy machine do not decide a figure; and peak memory.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface Rate {
  readonly medianMs: number;
  readonly mbPerSec: number;
}

export function rate(bytes: number, fn: () => unknown, { rounds = 5, minMs = 300 } = {}): Rate {
  for (let i = 0; i < 2; i++) fn(); // warm-up: JIT and caches
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < minMs || n === 0) {
      fn();
      n++;
    }
    times.push((performance.now() - start) / n);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)]!;
  return { medianMs, mbPerSec: bytes / 1e6 / (medianMs / 1000) };
}

/**
 * Peak RSS since start or the last reset: VmHWM. Not resourceUsage().maxRSS: on Linux that also
 * counts the memory of the process that forked this one (a small child of a large bench reports
 * nearly the bench's size). Elsewhere, maxRSS is the best there is.
 */
export function peakRss(): number {
  const hwm =
    existsSync('/proc/self/status') &&
    /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

/** Restarts VmHWM at the current RSS, so the next peak is that of what follows alone. */
export function resetPeakRss(): void {
  if (existsSync('/proc/self/clear_refs')) writeFileSync('/proc/self/clear_refs', '5');
}

/** The middle item by `key` (the upper one of an even count). */
export const medianBy = <T>(xs: readonly T[], key: (x: T) => number): T =>
  [...xs].sort((a, b) => key(a) - key(b))[Math.floor(xs.length / 2)]!;

export const median = (xs: readonly number[]) => medianBy(xs, (x) => x);

/**
 * `rounds` alternating pairs of runs (a first in each), each side's results in order: runs next
 * to each other share more of the machine's conditions than runs one after the other.
 */
export async function alternate<T>(
  rounds: number,
  a: () => Promise<T>,
  b: () => Promise<T>,
): Promise<[T[], T[]]> {
  const as: T[] = [];
  const bs: T[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return [as, bs];
}

/**
 * The rounds' own ratios a/b by `rate` (`as[i]` and `bs[i]` ran next to each other), in order,
 * and their median: what a paired row reports.
 */
export function roundRatios<T>(
  as: readonly T[],
  bs: readonly T[],
  rate: (x: T) => number,
): { ratio: number; ratios: number[] } {
  if (as.length === 0 || as.length !== bs.length) throw new Error('pairs: one b for every a');
  const ratios = as.map((x, i) => rate(x) / rate(bs[i]!));
  return { ratio: median(ratios), ratios };
}
