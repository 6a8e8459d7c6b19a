// The replay log's set of 16-byte entries (replay-log/entry-set.ts): every entry added is found
// again, however far the set grew, and only those.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { EntrySet } from '../../../src/reference/replay-log/entry-set.js';

it.each([1, 511, 512, 513, 20_000])('holds exactly the %i entries added', (count) => {
  const set = new EntrySet();
  const entries = Array.from({ length: count }, () => randomBytes(16));
  for (const e of entries) expect(set.add(e, 0)).toBe(true);
  for (const e of entries) expect(set.add(e, 0)).toBe(false);
  expect(set.size).toBe(count);
  // Entries differing from one added in a single byte are new.
  for (const e of entries.slice(0, 100)) {
    const near = Buffer.from(e);
    near[15]! ^= 1;
    expect(set.add(near, 0)).toBe(true);
  }
});

it('reads an entry at any offset of a buffer', () => {
  const set = new EntrySet();
  const b = Buffer.concat([Buffer.from([9, 9, 9]), randomBytes(16)]);
  expect(set.add(b, 3)).toBe(true);
  expect(set.add(Buffer.from(b.subarray(3)), 0)).toBe(false);
});

it('refuses an entry of zeros (the mark of an empty slot)', () => {
  expect(() => new EntrySet().add(Buffer.alloc(16), 0)).toThrow(RangeError);
});
