// Values shared between requests are frozen all the way down: callers share one value, and none
// may change it for the others. What is derived from such a value is made once and shared too.
import { frozenThrough } from '@evgen/runtime/internal';

/** `value`, frozen all the way down (in place). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

/**
 * `derive`, made once per input frozen all the way down (the read cache's values; the runtime's
 * test, as for kept encodings) and frozen in turn, so the answer is the same value each time and
 * the runtime keeps its encoding (writeKept); any other input is derived each time, and nothing
 * is kept for it. Entries live as long as their input.
 */
export function derivedOnce<R extends object, V>(derive: (r: R) => V): (r: R) => V {
  const made = new WeakMap<R, V>();
  return (r) => {
    if (!Object.isFrozen(r)) return derive(r);
    let v = made.get(r);
    if (v !== undefined) return v;
    v = derive(r);
    if (frozenThrough(r)) made.set(r, deepFreeze(v));
    return v;
  };
}
