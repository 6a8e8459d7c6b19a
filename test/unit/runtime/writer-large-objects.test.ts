// XmlWriter never builds a string V8 must put in its large-object space (over 128 KB): each such
// string gets pages mapped for it alone and unmapped after the next collection, which cost a
// worker 8–11% of its GetBookingsBatch(100) rate when every large answer made one. The answer's
// text is two-byte as soon as it holds one character past U+00FF (an en dash in a name), so
// 64 Ki units of it are 128 KB.
import { runInNewContext } from 'node:vm';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { STRING_UNITS, XmlWriter } from '@evgen/runtime/internal';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes in V8's large-object spaces for data, young and old (compiled code has its own). */
const DATA_SPACES = new Set(['new_large_object_space', 'large_object_space']);
const largeObjects = () =>
  getHeapSpaceStatistics()
    .filter((s) => DATA_SPACES.has(s.space_name))
    .reduce((sum, s) => sum + s.space_used_size, 0);

/** Large-object bytes `fn` leaves behind, measured from an empty young generation. */
function largeObjectsMadeBy(fn: () => void): number {
  gc();
  const before = largeObjects();
  fn();
  return largeObjects() - before;
}

/** A booking-sized piece of two-byte text, distinct each time (no string is shared). */
const piece = (i: number) =>
  `<Booking><Name>Delegate – Standard ${i}</Name>${'x'.repeat(3_000)}</Booking>`;

describe('XmlWriter and large strings', () => {
  it('the measure sees a flattened two-byte string of 64 Ki units', () => {
    let kept = '';
    const made = largeObjectsMadeBy(() => {
      let s = '';
      for (let i = 0; s.length < 64 * 1024; i++) s += piece(i);
      kept = new TextDecoder().decode(new TextEncoder().encode(s)); // a flat copy
    });
    expect(kept.length).toBeGreaterThan(64 * 1024);
    expect(made).toBeGreaterThan(128 * 1024);
  });

  it.each([
    { given: 'just past the string limit', units: STRING_UNITS + 4_000 },
    { given: 'past the old 64 Ki-unit limit', units: 64 * 1024 + 4_000 },
    { given: 'a 100-booking answer', units: 320_000 },
  ])('writes $given of two-byte text without one', ({ units }) => {
    let bytes = 0;
    const made = largeObjectsMadeBy(() => {
      const out = new XmlWriter();
      let written = 0;
      for (let i = 0; written < units; i++) {
        const p = piece(i);
        out.write(p);
        written += p.length;
      }
      bytes = out.bytes().length;
    });
    expect(bytes).toBeGreaterThan(units);
    expect(made).toBe(0);
  });
});
