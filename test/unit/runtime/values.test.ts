// Lexical forms of the primitive types: exact, never rounded, never zone-shifted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { XmlEncodeError } from '@evgen/runtime';
import {
  ValueError,
  escapeAttr,
  escapeText,
  parseBooleanLexical,
  parseDateTimeLexical,
  parseDecimalLexical,
  parseIntLexical,
  readString,
  readXml,
  writeDateTime,
  writeDecimal,
  writeInt,
} from '@evgen/runtime/internal';
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
      [' 2026-01-01T00:00:00.5 ', '2026-01-01T00:00:00.5'],
    ]));
  // gap datetime-zones: the wall-clock value is kept and the zone dropped, never converted.
  it('reads what .NET and gSOAP send, keeping the wall-clock value', () =>
    ok(parseDateTimeLexical, [
      ['2026-05-01T00:00:00+02:00', '2026-05-01T00:00:00'], // .NET DateTime.Today (Local kind)
      ['2026-05-01T00:00:00.0000000Z', '2026-05-01T00:00:00'], // .NET DateTime, Utc kind
      ['2026-05-01T09:30:15.1234567+02:00', '2026-05-01T09:30:15.1234567'], // .NET DateTime.Now
      ['2026-05-01T00:00:00Z', '2026-05-01T00:00:00'], // gSOAP (always UTC)
      ['2026-05-01T00:00:00.000Z', '2026-05-01T00:00:00'], // gSOAP with milliseconds
      ['2026-05-01T23:00:00-05:00', '2026-05-01T23:00:00'],
      ['2026-05-01T23:00:00-00:00', '2026-05-01T23:00:00'],
      ['2026-05-01T23:00:00+14:00', '2026-05-01T23:00:00'],
      ['2026-05-01T23:00:00-14:00', '2026-05-01T23:00:00'],
    ]));
  it('reads 1 to 7 fractional digits in canonical form (trailing zeros are not digits)', () =>
    ok(parseDateTimeLexical, [
      ['2026-05-01T10:00:00.1', '2026-05-01T10:00:00.1'],
      ['2026-05-01T10:00:00.12', '2026-05-01T10:00:00.12'],
      ['2026-05-01T10:00:00.120', '2026-05-01T10:00:00.12'],
      ['2026-05-01T10:00:00.0001000', '2026-05-01T10:00:00.0001'],
      ['2026-05-01T10:00:00.1234567000', '2026-05-01T10:00:00.1234567'],
      ['2026-05-01T10:00:00.0', '2026-05-01T10:00:00'],
    ]));
  it('reads 24:00:00 as the start of the next day (its canonical form)', () =>
    ok(parseDateTimeLexical, [
      ['2026-05-01T24:00:00', '2026-05-02T00:00:00'],
      ['2024-02-28T24:00:00Z', '2024-02-29T00:00:00'],
      ['2026-12-31T24:00:00.000+01:00', '2027-01-01T00:00:00'],
    ]));
  it('refuses impossible values, saying what is wrong', () =>
    bad(parseDateTimeLexical, [
      ['2025-02-29T00:00:00', /valid dateTime/],
      ['2026-13-01T00:00:00', /valid dateTime/],
      ['2026-01-01T24:00:01', /valid dateTime/],
      ['2026-01-01T24:00:00.1', /valid dateTime/],
      ['2026-01-01T00:00:00+14:01', /time zone offset from -14:00 to \+14:00/],
      ['2026-01-01T00:00:00+01:60', /time zone offset from -14:00 to \+14:00/],
      ['2026-01-01T00:00:00.12345678', /at most 7 fractional digits/],
      ['0000-01-01T00:00:00', /year from 0001 to 9999/],
      ['10000-01-01T00:00:00', /year from 0001 to 9999/],
      ['-0001-01-01T00:00:00Z', /year from 0001 to 9999/],
      ['9999-12-31T24:00:00', /year from 0001 to 9999/],
      ['2026-01-01 00:00:00', /dateTime/],
      ['2026-01-01T00:00:00+0100', /dateTime/],
      ['2026-01-01T00:00', /dateTime/],
      ['2026-01-01', /dateTime/],
      ['2026-01-01T00:00:00.', /dateTime/],
    ]));
  it('writes only the document form: no zone, no 24:00', () => {
    expect(writeDateTime('2026-05-01T00:00:00', 'T.StartDate')).toBe('2026-05-01T00:00:00');
    expect(writeDateTime('2026-05-01T00:00:00.25', 'T.StartDate')).toBe('2026-05-01T00:00:00.25');
    for (const given of ['2026-05-01T00:00:00Z', '2026-05-01T00:00:00+02:00'])
      expect(() => writeDateTime(given, 'T.StartDate'), given).toThrow(
        /T.StartDate: .*expected dateTime without a time zone/,
      );
    expect(() => writeDateTime('2026-05-01T24:00:00', 'T.StartDate')).toThrow(/valid dateTime/);
  });
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
