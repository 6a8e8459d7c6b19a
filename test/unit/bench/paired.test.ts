// The bench's paired rounds: which round stands for each side, and the ratio it reports.
import { describe, expect, it } from 'vitest';
import { alternate } from '../../../src/bench/measure.js';
import {
  medianRun,
  pairFigures,
  workersCeiling,
  type RunFigures,
} from '../../../src/bench/servers.js';

const run = (rps: number, p99 = rps / 100): RunFigures => ({
  generator: 'wrk',
  rps,
  p50: 1,
  p99,
  non2xx: 0,
  errors: 0,
  cpuMs: 0,
  rssBefore: 0,
  peakRssBefore: 0,
  peakRss: 0,
  serverCpu: 1,
  loadCpu: 0,
  seconds: 1,
});

describe('medianRun', () => {
  it.each([
    { given: [5], want: 5 },
    { given: [9, 1, 5], want: 5 },
    { given: [1, 9, 5, 7], want: 7 }, // even count: the upper middle
  ])('$given → $want', ({ given, want }) => {
    expect(medianRun(given.map((x) => run(x))).rps).toBe(want);
  });
});

describe('pairFigures', () => {
  it('reports the median of the rounds’ own ratios, not the ratio of the medians', () => {
    // The medians of each side (20 and 5) would give 4x: no round measured that.
    const p = pairFigures([run(30), run(20), run(10)], [run(10), run(4), run(5)]);
    expect(p.ratios).toEqual([3, 5, 2]);
    expect(p.ratio).toBe(3);
    expect(p.a.rps).toBe(20);
    expect(p.b.rps).toBe(5);
    expect(p.runs.map((r) => r.rps)).toEqual([30, 20, 10, 10, 4, 5]);
  });

  it('keeps the median round’s other figures with its rate', () => {
    const p = pairFigures([run(10, 7), run(30, 9), run(20, 8)], [run(1), run(1), run(1)]);
    expect(p.a).toMatchObject({ rps: 20, p99: 8 });
  });

  it.each([
    { given: [[], []] as const, what: 'no rounds' },
    { given: [[run(1)], []] as const, what: 'an a without its b' },
  ])('refuses $what', ({ given }) => {
    expect(() => pairFigures(given[0], given[1])).toThrow('one b for every a');
  });
});

describe('alternate', () => {
  it.each([
    { rounds: 1, want: ['a', 'b'] },
    { rounds: 3, want: ['a', 'b', 'a', 'b', 'a', 'b'] },
  ])('runs $rounds round(s), a then b in each', async ({ rounds, want }) => {
    const order: string[] = [];
    const side = (name: string) => () => Promise.resolve((order.push(name), order.length));
    const [as, bs] = await alternate(rounds, side('a'), side('b'));
    expect(order).toEqual(want);
    expect(as).toEqual(Array.from({ length: rounds }, (_, i) => 2 * i + 1));
    expect(bs).toEqual(Array.from({ length: rounds }, (_, i) => 2 * i + 2));
  });
});

describe('workersCeiling', () => {
  const one = (serverCpu: number, loadCpu: number) => ({ ...run(458), serverCpu, loadCpu });
  it.each([
    // The run of 2026-11-27 17:13: one worker kept 1.12 cores busy, wrk 0.08.
    { given: { serverCpu: 1.12, loadCpu: 0.08, cores: 2 }, want: 2 / 1.2 },
    // One worker and its load already filling both cores: a second adds nothing.
    { given: { serverCpu: 1.9, loadCpu: 0.1, cores: 2 }, want: 1 },
    { given: { serverCpu: 1, loadCpu: 0, cores: 4 }, want: 4 },
  ])('$given → $want', ({ given, want }) => {
    expect(workersCeiling(one(given.serverCpu, given.loadCpu), given.cores)).toBeCloseTo(want, 9);
  });

  it('refuses a run with no CPU measured instead of answering Infinity', () => {
    expect(() => workersCeiling(one(0, 0), 2)).toThrow(/no CPU measured/);
  });
});
