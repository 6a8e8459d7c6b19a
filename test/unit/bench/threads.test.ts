// The bench's CPU split by thread: /proc stat lines read by field, the busiest thread's share of
// what all threads spent between two readings, and a real reading of this process.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { busiestShare, statTicks, threadTicks } from '../../../src/bench/threads.js';

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

describe('busiestShare', () => {
  it.each([
    {
      name: 'one thread busy, two beside it',
      before: ticks([
        ['1', 100],
        ['2', 10],
        ['3', 0],
      ]),
      after: ticks([
        ['1', 180],
        ['2', 20],
        ['3', 10],
      ]),
      want: 0.8,
    },
    {
      name: 'a thread started in between counts from zero',
      before: ticks([['1', 100]]),
      after: ticks([
        ['1', 130],
        ['9', 70],
      ]),
      want: 0.7,
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
    const got = busiestShare(before, after);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toBeCloseTo(want, 10);
  });
});

describe.runIf(process.platform === 'linux')('threadTicks on this process', () => {
  it('finds a thread that spins for 400 ms as the busiest, with most of the ticks spent', async () => {
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
      expect(busiestShare(before, after)).toBeGreaterThan(0.5);
    } finally {
      await spin.terminate();
    }
  });
});
