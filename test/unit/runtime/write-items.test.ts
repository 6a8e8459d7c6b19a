// writeItems: list items each wrapped in their element, joined by one literal between items.
import { describe, expect, it } from 'vitest';
import { XmlEncodeError } from '@evgen/runtime';
import { writeItems } from '@evgen/runtime/internal';

const item = (n: number) => `<v>${n}</v>`;

describe('writeItems', () => {
  it.each([
    { given: [], want: '' },
    { given: [1], want: '<i><v>1</v></i>' },
    { given: [1, 2, 3], want: '<i><v>1</v></i><i><v>2</v></i><i><v>3</v></i>' },
  ])('$given', ({ given, want }) => {
    expect(writeItems(given, 'i', item, 'T.List')).toBe(want);
  });

  it('passes every item and the field path to the writer', () => {
    const seen: [number, string][] = [];
    writeItems([4, 5], 'i', (n, path) => (seen.push([n, path]), ''), 'T.List');
    expect(seen).toEqual([
      [4, 'T.List'],
      [5, 'T.List'],
    ]);
  });

  it.each([{ given: undefined }, { given: null }, { given: 'abc' }, { given: { length: 1 } }])(
    'refuses $given with the field path',
    ({ given }) => {
      expect(() => writeItems(given as unknown as number[], 'i', item, 'T.List')).toThrow(
        XmlEncodeError,
      );
      expect(() => writeItems(given as unknown as number[], 'i', item, 'T.List')).toThrow(
        /T\.List/,
      );
    },
  );
});
