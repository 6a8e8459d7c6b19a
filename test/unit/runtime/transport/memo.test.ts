// The per-request memo (Host → namespace, namespace and operation → SOAPAction) takes its keys
// from clients: it must answer what its function answers and never hold more than its bound.
import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../../../src/runtime/transport/memo.js';

describe('boundedMemo', () => {
  it('computes each key once while it is held', () => {
    const calls: string[] = [];
    const upper = boundedMemo((k) => (calls.push(k), k.toUpperCase()), 4);
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(calls).toEqual(['a', 'b']);
  });

  it('never holds more than its bound: the key past it empties the table', () => {
    let computed = 0;
    const memo = boundedMemo((k) => (computed++, `v${k}`), 8);
    for (let i = 0; i < 8; i++) memo(`k${i}`);
    for (let i = 0; i < 8; i++) memo(`k${i}`);
    expect(computed).toBe(8); // all eight held
    expect(memo('k8')).toBe('vk8'); // a ninth: the table is emptied first
    memo('k0');
    expect(computed).toBe(10); // k0 was no longer held
  });

  it('answers right under a flood of distinct keys', () => {
    const memo = boundedMemo((k) => `v${k}`, 8);
    for (let i = 0; i < 10_000; i++) expect(memo(`k${i}`)).toBe(`vk${i}`);
  });
});
