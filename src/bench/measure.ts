// Timing helpers: repeat a function until a minimum time has passed, several rounds, and report
// the median, so single hiccups on a noisy machine do not decide a figure.
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

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
