// writeKept: a value frozen all the way down is encoded once per encoder and its UTF-8 written
// after; anything that could still change is encoded on every call, so an answer never carries the
// XML of an older value, and no answer can change what is kept.
import { describe, expect, it } from 'vitest';
import { XmlEncodeError } from '@evgen/runtime';
import { XmlWriter, writeKept, writeString, wrongType } from '@evgen/runtime/internal';

interface Row {
  readonly Name: string;
  readonly Tags?: readonly string[];
  readonly At?: unknown;
}

/** An encoder that counts its calls: what each case observes. */
function counting() {
  const calls: string[] = [];
  const encode = (v: Row, path: string) => {
    calls.push(path);
    if (typeof v !== 'object' || v === null) throw wrongType(path, 'Row', v);
    return `<Name>${writeString(v.Name, `${path}.Name`)}</Name><Tags>${(v.Tags ?? []).join(',')}</Tags>`;
  };
  return { encode, calls };
}

const frozen = <T extends object>(v: T): T => Object.freeze(v);

/** A document of `v` written by writeKept between two strings, as the generated code writes it. */
function keptXml(v: Row, encode: (v: Row, path: string) => string, path: string): string {
  const out = new XmlWriter();
  out.write('<R>');
  writeKept(out, v, encode, path);
  out.write('</R>');
  const xml = out.toString();
  expect(xml.startsWith('<R>') && xml.endsWith('</R>'), xml).toBe(true);
  return xml.slice(3, -4);
}

describe('writeKept', () => {
  it.each([
    {
      name: 'a frozen plain value with frozen arrays',
      given: () => frozen({ Name: 'a', Tags: frozen(['x', 'y']) }),
      want: 1,
    },
    { name: 'a frozen value with no objects inside', given: () => frozen({ Name: 'a' }), want: 1 },
    { name: 'a value not frozen', given: () => ({ Name: 'a', Tags: ['x'] }), want: 3 },
    {
      name: 'a frozen value holding an array not frozen',
      given: () => frozen({ Name: 'a', Tags: ['x'] }),
      want: 3,
    },
    {
      name: 'a frozen value holding a Date (its time can change)',
      given: () => frozen({ Name: 'a', At: frozen(new Date(0)) }),
      want: 3,
    },
    {
      name: 'a frozen value with a getter',
      given: () =>
        frozen({
          Tags: frozen([]),
          get Name() {
            return 'a';
          },
        }),
      want: 3,
    },
    {
      name: 'a frozen instance of a class',
      given: () =>
        frozen(
          new (class Named {
            readonly Name = 'a';
          })(),
        ),
      want: 3,
    },
  ])('$name: encoded $want times in 3 calls', ({ given, want }) => {
    const { encode, calls } = counting();
    const v = given();
    const xml = [1, 2, 3].map(() => keptXml(v, encode, 'R'));
    expect(calls).toHaveLength(want);
    expect(new Set(xml)).toEqual(new Set([encode(v, 'R')]));
  });

  it('keeps each encoder apart: the same value encoded by two', () => {
    const v = frozen({ Name: 'a', Tags: frozen(['x']) });
    const one = counting();
    const other = (r: Row) => `<Other>${r.Name}</Other>`;
    expect(keptXml(v, one.encode, 'R')).toBe('<Name>a</Name><Tags>x</Tags>');
    expect(keptXml(v, other, 'R')).toBe('<Other>a</Other>');
    expect(keptXml(v, one.encode, 'R')).toBe('<Name>a</Name><Tags>x</Tags>');
    expect(one.calls).toHaveLength(1);
  });

  it('gives a new frozen value its own XML', () => {
    const { encode } = counting();
    expect(keptXml(frozen({ Name: 'old' }), encode, 'R')).toContain('old');
    expect(keptXml(frozen({ Name: 'new' }), encode, 'R')).toContain('new');
  });

  it.each([
    { name: 'a wrong value inside a frozen one', given: frozen({ Name: 7 }) },
    { name: 'undefined', given: undefined },
    { name: 'null', given: null },
  ])('refuses $name each time, with the path, keeping nothing', ({ given }) => {
    const { encode, calls } = counting();
    for (let i = 0; i < 2; i++)
      expect(() => keptXml(given as unknown as Row, encode, 'R')).toThrow(XmlEncodeError);
    expect(calls).toEqual(['R', 'R']);
  });

  it('keeps its bytes from the answers that carry them: one changed does not change the next', () => {
    const v = frozen({ Name: 'é€', Tags: frozen(['x']) });
    const { encode, calls } = counting();
    const answer = () => {
      const out = new XmlWriter();
      out.write('<R>');
      writeKept(out, v, encode, 'R');
      return out.content();
    };
    const first = answer();
    expect(first).toBeInstanceOf(Uint8Array);
    (first as Uint8Array).fill(0x21);
    expect(Buffer.from(answer() as Uint8Array).toString()).toBe('<R><Name>é€</Name><Tags>x</Tags>');
    expect(calls).toHaveLength(1);
  });
});
