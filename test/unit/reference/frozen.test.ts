// deepFreeze and derivedOnce (src/reference/frozen.ts): a value derived from a frozen record is
// made once per record and frozen all the way down; from a record not frozen, made each time.
import { describe, expect, it } from 'vitest';
import { deepFreeze, derivedOnce } from '../../../src/reference/frozen.js';

interface Rec {
  name: string;
  tags: string[];
}

function counting() {
  let calls = 0;
  const derive = derivedOnce((r: Rec) => (calls++, { Name: r.name, Tags: [...r.tags] }));
  return { derive, calls: () => calls };
}

describe('deepFreeze', () => {
  it('freezes every object and array reachable, in place', () => {
    const v = { a: { b: [1, { c: 2 }] } };
    expect(deepFreeze(v)).toBe(v);
    expect([v, v.a, v.a.b, v.a.b[1]].map((o) => Object.isFrozen(o))).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });
});

describe('derivedOnce', () => {
  it.each([
    { name: 'a frozen record', frozen: true, want: { calls: 1, same: true, frozen: true } },
    { name: 'a record not frozen', frozen: false, want: { calls: 3, same: false, frozen: false } },
  ])('$name: derived $want.calls times in 3 calls', ({ frozen, want }) => {
    const { derive, calls } = counting();
    const r: Rec = { name: 'a', tags: ['x'] };
    if (frozen) deepFreeze(r);
    const got = [1, 2, 3].map(() => derive(r));
    expect({
      calls: calls(),
      same: got[0] === got[2],
      frozen: Object.isFrozen(got[0]) && Object.isFrozen(got[0]!.Tags),
    }).toEqual(want);
  });

  it('derives each frozen record for itself', () => {
    const { derive } = counting();
    const one = deepFreeze({ name: 'one', tags: [] });
    const two = deepFreeze({ name: 'two', tags: [] });
    expect([derive(one).Name, derive(two).Name, derive(one).Name]).toEqual(['one', 'two', 'one']);
  });

  it('follows a record frozen on the outside only as what it holds changes', () => {
    const { derive, calls } = counting();
    const r: Rec = Object.freeze({ name: 'a', tags: ['before'] });
    expect(derive(r).Tags).toEqual(['before']);
    r.tags[0] = 'after';
    expect(derive(r).Tags).toEqual(['after']);
    expect(calls()).toBe(2);
  });

  it('follows a record not frozen as it changes', () => {
    const { derive } = counting();
    const r: Rec = { name: 'before', tags: [] };
    expect(derive(r).Name).toBe('before');
    r.name = 'after';
    expect(derive(r).Name).toBe('after');
  });
});
