// utf8Source: ranges of UTF-8 bytes read as strings, clamped to the end as subarray() is, from a
// Buffer (a body node:http read) and from any other Uint8Array alike.
import { describe, expect, it } from 'vitest';
import { utf8Source } from '../../../src/runtime/xml/utf8.js';

const text = 'a€b😀c'; // 1, 3, 1, 4 and 1 bytes
const cases: { given: [number, number]; want: string }[] = [
  { given: [0, 1], want: 'a' },
  { given: [1, 4], want: '€' },
  { given: [0, 10], want: text },
  { given: [5, 9], want: '😀' },
  { given: [4, 99], want: 'b😀c' }, // past the end: to the end
  { given: [10, 12], want: '' }, // from the end
  { given: [20, 30], want: '' }, // past it
  { given: [3, 3], want: '' },
];

describe('utf8Source', () => {
  const buffer = Buffer.from(text, 'utf8');
  const inputs = {
    Buffer: buffer,
    Uint8Array: new Uint8Array(buffer),
    'a view inside a larger array': new Uint8Array([0x3c, ...buffer, 0x3e]).subarray(1, 11),
  };
  for (const [name, bytes] of Object.entries(inputs))
    it(`reads ranges of ${name}, clamped to the end`, () => {
      const src = utf8Source(bytes);
      for (const { given, want } of cases) expect(src.slice(...given), given.join(',')).toBe(want);
    });
});
