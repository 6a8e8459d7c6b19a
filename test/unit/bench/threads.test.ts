// The bench's CPU split by thread: /proc stat lines read by field, the busiest thread's and the
// main thread's shares of what all threads spent between two readings, and a real reading of this
// process.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  cpuSplit,
  statTicks,
  statTimes,
  threadShares,
  threadTicks,
} from '../../../src/bench/threads.js';

// Fields after the name: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt,
// cmajflt, then utime (14th) and stime (15th).
const stat = (name: string, utime: number, stime: number) =>
  `4242 (${name}) R 1 4242 4242 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 7 0 1234 0 0`;

describe('statTicks', () => {
  it.each([
    { given: stat('node', 120, 30), want: 150 },
    { given: stat('V8 DefaultWorke', 7, 0), want: 7 },
    { given: stat('a) b (c', 5, 6), want: 11 },
  ])('$given', ({ given, want }) => {
    expect(statTicks(given)).toBe(want);
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => statTicks('not a stat line')).toThrow(/not a \/proc stat line/);
  });
});

const ticks = (entries: [string, number][]) => new Map(entries);

describe('threadShares', () => {
  it.each([
    {
      name: 'one thread busy, the main thread and one more beside it',
      before: ticks([
        ['1', 0],
        ['2', 100],
        ['3', 10],
      ]),
      after: ticks([
        ['1', 10],
        ['2', 180],
        ['3', 20],
      ]),
      want: { busiest: 0.8, main: 0.1 },
    },
    {
      name: 'the main thread the busiest',
      before: ticks([
        ['1', 50],
        ['2', 0],
      ]),
      after: ticks([
        ['1', 110],
        ['2', 40],
      ]),
      want: { busiest: 0.6, main: 0.6 },
    },
    {
      name: 'a thread started in between counts from zero',
      before: ticks([['1', 100]]),
      after: ticks([
        ['1', 130],
        ['9', 70],
      ]),
      want: { busiest: 0.7, main: 0.3 },
    },
    {
      name: 'no ticks spent',
      before: ticks([['1', 5]]),
      after: ticks([['1', 5]]),
      want: undefined,
    },
    { name: 'no reading before', before: undefined, after: ticks([['1', 5]]), want: undefined },
    { name: 'no reading after', before: ticks([['1', 5]]), after: undefined, want: undefined },
  ])('$name', ({ before, after, want }) => {
    const got = threadShares(before, after, '1');
    if (want === undefined) return expect(got).toBeUndefined();
    expect(got?.busiest).toBeCloseTo(want.busiest, 10);
    expect(got?.main).toBeCloseTo(want.main, 10);
  });
});

describe('statTimes', () => {
  it('reads utime and stime apart', () => {
    expect(statTimes(stat('a) b (c', 5, 6))).toEqual({ user: 5, system: 6 });
  });
});

describe('cpuSplit', () => {
  const times = (entries: [string, number, number][]) =>
    new Map(entries.map(([tid, user, system]) => [tid, { user, system }]));
  it.each([
    {
      name: 'the request loop, two workers and a helper',
      before: times([
        ['1', 10, 5],
        ['2', 0, 0],
        ['3', 100, 0],
        ['4', 3, 0],
      ]),
      after: times([
        ['1', 40, 25],
        ['2', 30, 10],
        ['3', 120, 5],
        ['4', 8, 1],
      ]),
      want: { loop: 50, workers: 65, other: 6, kernel: 36 },
    },
    {
      name: 'a thread started in between counts from zero, one that ended not at all',
      before: times([
        ['1', 10, 0],
        ['5', 50, 50],
      ]),
      after: times([
        ['1', 20, 5],
        ['9', 7, 3],
      ]),
      want: { loop: 15, workers: 0, other: 10, kernel: 8 },
    },
  ])('$name', ({ before, after, want }) => {
    expect(cpuSplit(before, after, '1', new Set(['2', '3']))).toEqual(want);
  });
});

describe.runIf(process.platform === 'linux')('threadTicks on this process', () => {
  it('finds a thread that spins for 400 ms as the busiest, not the main thread', async () => {
    // The worker stays alive after spinning: an exited thread leaves the reading with its ticks.
    const spin = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const end = Date.now() + 400;
       while (Date.now() < end);
       parentPort.postMessage('spun');
       setTimeout(() => {}, 10_000);`,
      { eval: true },
    );
    try {
      await new Promise((ready) => spin.once('online', ready));
      const before = threadTicks(process.pid)!;
      await new Promise((spun) => spin.once('message', spun));
      const after = threadTicks(process.pid)!;
      expect(after.size).toBeGreaterThan(1);
      const shares = threadShares(before, after, String(process.pid))!;
      expect(shares.busiest).toBeGreaterThan(0.5);
      // The main thread only waited for the message: the spinning worker is not it.
      expect(shares.main).toBeLessThan(shares.busiest);
    } finally {
      await spin.terminate();
    }
  });
});
