// The log entries' time: formatted once per millisecond, never stale past it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow } from '@evgen/runtime/internal';

describe('isoNow', () => {
  afterEach(() => vi.useRealTimers());
  it.each([
    { given: Date.UTC(2026, 10, 28, 14, 5, 6, 7), want: '2026-11-28T14:05:06.007Z' },
    { given: Date.UTC(2026, 10, 28, 14, 5, 6, 8), want: '2026-11-28T14:05:06.008Z' },
    { given: Date.UTC(2027, 0, 1), want: '2027-01-01T00:00:00.000Z' },
  ])('is the time of the millisecond it is called in: $want', ({ given, want }) => {
    vi.useFakeTimers({ now: given });
    expect(isoNow()).toBe(want);
    expect(isoNow()).toBe(want);
    vi.setSystemTime(given + 1);
    expect(isoNow()).toBe(new Date(given + 1).toISOString());
  });
});
