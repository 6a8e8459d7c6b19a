// The per-request cache (Host → namespace, binding, namespace and operation → SOAPAction) takes
// its keys from clients: it must answer what its computation answers and never hold more than
// its bound.
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../../src/runtime/transport/memo.js';

describe('BoundedCache', () => {
  it('computes each key once while it is held', () => {
    const calls: string[] = [];
    const cache = new BoundedCache<string>(4);
    const upper = (k: string) => cache.get(k, () => (calls.push(k), k.toUpperCase()));
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(calls).toEqual(['a', 'b']);
  });

  it('never holds more than its bound: the key past it empties the table', () => {
    let computed = 0;
    const cache = new BoundedCache<string>(8);
    const get = (k: string) => cache.get(k, () => (computed++, `v${k}`));
    for (let i = 0; i < 8; i++) get(`k${i}`);
    for (let i = 0; i < 8; i++) get(`k${i}`);
    expect(computed).toBe(8); // all eight held
    expect(get('k8')).toBe('vk8'); // a ninth: the table is emptied first
    get('k0');
    expect(computed).toBe(10); // k0 was no longer held
  });

  it('answers right under a flood of distinct keys', () => {
    const cache = new BoundedCache<string>(8);
    for (let i = 0; i < 10_000; i++) expect(cache.get(`k${i}`, () => `vk${i}`)).toBe(`vk${i}`);
  });
});
