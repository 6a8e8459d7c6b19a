// Encodings kept with the values they encode, for values that cannot change. A service that keeps
// answers in memory and freezes them all the way down (the reference service's read cache) gets
// each one's XML made once, as UTF-8 bytes, not once per request: an answer copies them, never
// encodes them again. Anything else is encoded each time, as before.
// An entry lives as long as its value (a WeakMap per encoder): nothing here grows with requests.
import { encodeUtf8 } from '../xml/utf8.js';
import type { XmlWriter } from '../xml/writer.js';

type Encoder<T> = (v: T, path: string) => string;

/** By encoder (a generated function: a few dozen), then by value. */
const keptBy = new Map<object, WeakMap<object, Uint8Array>>();

/** Plain data: an object literal or an array (a Date or any class keeps state freezing misses). */
function isPlain(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

/**
 * Whether nothing reachable from `v` can change: plain objects and arrays, frozen, whose own
 * properties are all data (an accessor could answer differently each time), down to primitives.
 */
export function frozenThrough(v: object): boolean {
  if (!isPlain(v) || !Object.isFrozen(v)) return false;
  for (const d of Object.values(Object.getOwnPropertyDescriptors(v))) {
    if (!('value' in d)) return false;
    const x: unknown = d.value;
    if (typeof x === 'object' && x !== null && !frozenThrough(x)) return false;
  }
  return true;
}

/**
 * Writes `encode(v, path)` to `out`. For `v` frozen all the way down its UTF-8 is kept, and the
 * next call with the same `v` and `encode` writes those bytes (out.writeBytes); a value that is
 * not is encoded each time (one check). What `encode` refuses is refused each time, and nothing is
 * kept for it.
 */
export function writeKept<T>(out: XmlWriter, v: T, encode: Encoder<T>, path: string): void {
  if (typeof v !== 'object' || v === null || !Object.isFrozen(v)) return out.write(encode(v, path));
  const kept = keptBy.get(encode)?.get(v);
  if (kept !== undefined) return out.writeBytes(kept);
  const xml = encode(v, path);
  if (!frozenThrough(v)) return out.write(xml);
  const bytes = encodeUtf8(xml);
  let byValue = keptBy.get(encode);
  if (byValue === undefined) keptBy.set(encode, (byValue = new WeakMap()));
  byValue.set(v, bytes);
  out.writeBytes(bytes);
}
