// The page-cost row measures its two databases in turns, call by call, so neither pays alone for
// the process warming up or for a slow spell of the machine (one run measured the 3,000-booking
// database first, cold, and the next run's 100,000-booking figures during a slow spell).
import { describe, expect, it } from 'vitest';
import type { ServiceHandler } from '@evgen/runtime';
import { timeInTurns } from '../../../src/bench/reference.js';

const request = { body: '<x/>', headers: {} };

function recording(name: string, order: string[], waitMs = 0, status = 200): ServiceHandler {
  return async () => {
    order.push(name);
    if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
    return { status, headers: {}, body: '' };
  };
}

describe('timeInTurns', () => {
  it.each([
    { given: 1, want: 3 },
    { given: 4, want: 6 },
  ])(
    'takes one call of each in turn, $given counted after two turns not counted',
    async ({ given, want }) => {
      const order: string[] = [];
      const makers = ['a', 'b'].map((n) => ({ handler: recording(n, order), make: () => request }));
      const medians = await timeInTurns(makers, given);
      expect(medians).toHaveLength(2);
      expect(order).toEqual(Array.from({ length: want }, () => ['a', 'b']).flat());
    },
  );

  it('gives each maker the median of its own calls', async () => {
    const order: string[] = [];
    const [slow, fast] = await timeInTurns(
      [
        { handler: recording('slow', order, 30), make: () => request },
        { handler: recording('fast', order), make: () => request },
      ],
      3,
    );
    expect(slow).toBeGreaterThanOrEqual(25);
    expect(fast).toBeLessThan(slow!);
  });

  it('refuses an answer that is not 200', async () => {
    const makers = [{ handler: recording('a', [], 0, 500), make: () => request }];
    await expect(timeInTurns(makers, 1)).rejects.toThrow('page cost: HTTP 500');
  });
});
