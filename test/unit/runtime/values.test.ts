// Lexical forms of the primitive types: exact, never rounded, never zone-shifted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ValueError,
  XmlEncodeError,
  escapeAttr,
  escapeText,
  parseBooleanLexical,
  parseDateTimeLexical,
  parseDecimalLexical,
  parseIntLexical,
  readString,
  readXml,
  writeDecimal,
  writeInt,
} from '@evgen/runtime';
import { decimalArb, xmlString } from '../../support/arbitraries.js';

const ok = <T>(parse: (s: string) => T, cases: [string, T][]) =>
  cases.forEach(([given, want]) => expect(parse(given), given).toEqual(want));
const bad = (parse: (s: string) => unknown, cases: [string, RegExp][]) =>
  cases.forEach(([given, want]) => expect(() => parse(given), given).toThrow(want));

describe('int', () => {
  it('reads int32', () =>
    ok(parseIntLexical, [
      ['0', 0],
      [' 42 ', 42],
      ['-2147483648', -2147483648],
      ['+7', 7],
      ['-0', 0],
    ]));
  it('refuses what is not int32', () =>
    bad(parseIntLexical, [
      ['2147483648', /32-bit/],
      ['1.0', /int/],
      ['', /int/],
      ['0x10', /int/],
      ['1e3', /int/],
    ]));
  it('writes only int32', () => {
    expect(writeInt(-5, 'T.F')).toBe('-5');
    expect(() => writeInt(1.5, 'T.F')).toThrow(XmlEncodeError);
    expect(() => writeInt(2 ** 31, 'T.F')).toThrow(
      'T.F: expected int (32-bit integer), got 2147483648',
    );
  });
});

describe('boolean', () => {
  it('reads true/false and 1/0', () =>
    ok(parseBooleanLexical, [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      [' true ', true],
    ]));
  it('refuses other spellings', () =>
    bad(parseBooleanLexical, [
      ['True', /boolean/],
      ['yes', /boolean/],
      ['', /boolean/],
    ]));
});

describe('decimal', () => {
  it('normalises to the scale', () =>
    ok(
      (s) => parseDecimalLexical(s, 2),
      [
        ['12.5', '12.50'],
        ['12', '12.00'],
        ['-0.10000', '-0.10'],
        ['.5', '0.50'],
        ['007.10', '7.10'],
        ['-0.00', '0.00'],
        ['+3.', '3.00'],
      ],
    ));
  it('keeps 5 places for rates', () =>
    ok(
      (s) => parseDecimalLexical(s, 5),
      [
        ['0.2', '0.20000'],
        ['99999999999999.12345', '99999999999999.12345'],
      ],
    ));
  it('never rounds', () =>
    bad(
      (s) => parseDecimalLexical(s, 2),
      [
        ['12.345', /at most 2 decimal places/],
        ['1e2', /decimal/],
        ['NaN', /decimal/],
        ['', /decimal/],
        ['.', /decimal/],
      ],
    ));
  it('writes exactly its scale, or fails', () => {
    expect(writeDecimal('12.5', 2, 'T.Money')).toBe('12.50');
    expect(() => writeDecimal('0.125', 2, 'T.Money')).toThrow(
      'T.Money: expected decimal with at most 2 decimal places, got "0.125"',
    );
    expect(() => writeDecimal(12.5 as unknown as string, 2, 'T.Money')).toThrow(
      'T.Money: required decimal (a string of its digits), got 12.5',
    );
  });
  for (const scale of [2, 5]) {
    it(`round-trips any value at scale ${scale}`, () => {
      fc.assert(
        fc.property(decimalArb(scale), (x) => {
          expect(parseDecimalLexical(writeDecimal(x, scale, 'x'), scale)).toBe(x);
        }),
      );
    });
  }
});

describe('dateTime', () => {
  it('reads local times as written', () =>
    ok(parseDateTimeLexical, [
      ['2026-02-28T23:59:59', '2026-02-28T23:59:59'],
      ['2024-02-29T00:00:00', '2024-02-29T00:00:00'],
      ['2026-01-01T00:00:00.1234567', '2026-01-01T00:00:00.1234567'],
    ]));
  it('refuses zones and impossible dates', () =>
    bad(parseDateTimeLexical, [
      ['2026-01-01T00:00:00Z', /without a time zone/],
      ['2026-01-01T00:00:00+01:00', /without a time zone/],
      ['2025-02-29T00:00:00', /valid dateTime/],
      ['2026-13-01T00:00:00', /valid dateTime/],
      ['2026-01-01 00:00:00', /dateTime/],
      ['2026-01-01T24:00:00', /valid dateTime/],
    ]));
});

describe('escaping', () => {
  it('escapes markup and keeps CR', () => {
    expect(escapeText('a<b>&c\r')).toBe('a&lt;b&gt;&amp;c&#xD;');
    expect(escapeAttr('"\t\n')).toBe('&quot;&#x9;&#xA;');
    expect(escapeText('plain text')).toBe('plain text');
  });
  it('refuses characters XML cannot carry', () => {
    expect(() => escapeText('a\u0001b')).toThrow(/U\+0001/);
    expect(() => escapeText('\uD800')).toThrow(/U\+D800/);
    expect(escapeText('😀')).toBe('😀');
  });
  it('round-trips any XML string through parse', () => {
    fc.assert(
      fc.property(xmlString, (s) => {
        expect(readString(readXml(`<a>${escapeText(s)}</a>`), 0)).toBe(s);
      }),
    );
  });
  it('is a ValueError for lexical failures', () =>
    expect(() => parseIntLexical('x')).toThrow(ValueError));
});
