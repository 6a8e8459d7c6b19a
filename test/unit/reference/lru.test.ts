// Lru (src/reference/sqlite/lru.ts): at most `limit` entries, the least recently used dropped
// first, where a get or a set of a key makes it the most recently used.
import { describe, expect, it } from 'vitest';
import { Lru } from '../../../src/reference/sqlite/lru.js';

type Op = ['get' | 'delete', string] | ['set', string, number];

/** Runs `ops` on an Lru of `limit`: the values the gets found, and the keys left, oldest first. */
function run(limit: number, ops: readonly Op[]) {
  const lru = new Lru<number>(limit);
  const got: (number | undefined)[] = [];
  for (const op of ops) {
    if (op[0] === 'get') got.push(lru.get(op[1]));
    else if (op[0] === 'set') lru.set(op[1], op[2]);
    else lru.delete(op[1]);
  }
  return { got, keys: lru.keys(), size: lru.size };
}

const set = (k: string, v = 0): Op => ['set', k, v];
const get = (k: string): Op => ['get', k];
const del = (k: string): Op => ['delete', k];

describe('Lru', () => {
  it.each([
    { name: 'empty', given: { limit: 2, ops: [get('a')] }, want: { got: [undefined], keys: [] } },
    {
      name: 'in the order set',
      given: { limit: 3, ops: [set('a'), set('b'), set('c')] },
      want: { got: [], keys: ['a', 'b', 'c'] },
    },
    {
      name: 'the oldest dropped at the limit',
      given: { limit: 2, ops: [set('a'), set('b'), set('c'), get('a')] },
      want: { got: [undefined], keys: ['b', 'c'] },
    },
    {
      name: 'a get makes the oldest the newest',
      given: { limit: 2, ops: [set('a', 1), set('b'), get('a'), set('c')] },
      want: { got: [1], keys: ['a', 'c'] },
    },
    {
      name: 'a get of one in the middle',
      given: { limit: 3, ops: [set('a'), set('b', 2), set('c'), get('b'), set('d')] },
      want: { got: [2], keys: ['c', 'b', 'd'] },
    },
    {
      name: 'a get of the newest changes nothing',
      given: { limit: 2, ops: [set('a'), set('b', 2), get('b'), set('c')] },
      want: { got: [2], keys: ['b', 'c'] },
    },
    {
      name: 'a set of a key kept replaces its value and makes it the newest, dropping none',
      given: { limit: 2, ops: [set('a', 1), set('b'), set('a', 9), set('c'), get('a')] },
      want: { got: [9], keys: ['c', 'a'] },
    },
    {
      name: 'a delete frees its place',
      given: { limit: 2, ops: [set('a'), set('b'), del('a'), set('c'), get('b')] },
      want: { got: [0], keys: ['c', 'b'] },
    },
    {
      name: 'deleting the newest, the oldest and the only one',
      given: {
        limit: 3,
        ops: [set('a'), set('b'), set('c'), del('c'), del('a'), del('b'), set('d')],
      },
      want: { got: [], keys: ['d'] },
    },
    {
      name: 'a delete of a key not kept',
      given: { limit: 1, ops: [set('a'), del('z'), get('a')] },
      want: { got: [0], keys: ['a'] },
    },
    {
      name: 'a limit of one',
      given: { limit: 1, ops: [set('a'), set('b'), get('a'), get('b')] },
      want: { got: [undefined, 0], keys: ['b'] },
    },
  ])('$name', ({ given, want }) => {
    const out = run(given.limit, given.ops);
    expect({ got: out.got, keys: out.keys }).toEqual(want);
    expect(out.size).toBe(want.keys.length);
  });

  it('never holds more than its limit, whatever the order of use', () => {
    const lru = new Lru<number>(16);
    for (let i = 0; i < 10_000; i++) {
      lru.set(`k${(i * 7919) % 97}`, i);
      lru.get(`k${(i * 104_729) % 89}`);
      expect(lru.size).toBeLessThanOrEqual(16);
    }
    expect(lru.keys()).toHaveLength(16);
  });
});
