// `npm run bench -- --only <parts>`: which parts a list names, and a clear refusal of a name that
// is not a part (a typo must not run nothing and write an empty table).
import { describe, expect, it } from 'vitest';
import { BENCH_PARTS, benchParts } from '../../../src/bench/index.js';

describe('benchParts', () => {
  it.each([
    { given: undefined, want: [...BENCH_PARTS] },
    { given: 'per-core', want: ['per-core'] },
    { given: 'servers, per-core', want: ['servers', 'per-core'] },
  ])('$given', ({ given, want }) => {
    expect([...benchParts(given)]).toEqual(want);
  });

  it.each(['per_core', 'per-core,', ''])('refuses %j, naming the parts', (given) => {
    expect(() => benchParts(given)).toThrow(/--only: unknown part .*\(parts: generator, codecs/);
  });
});
