// No wrong value reaches the wire: the generated encoders refuse undefined, null where the spec
// does not allow it and values of the wrong kind, with an XmlEncodeError naming Type.Field, for
// every field of every type (derived from the spec). Before, `escapeText(undefined)` wrote the
// text "undefined" and `writeBoolean(undefined)` wrote "false".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as codecs from '@evgen/event-management/codecs';
import { XmlEncodeError } from '@evgen/runtime';
import { typeArbitraries } from '../../support/arbitraries.js';
import { projectIr } from '../../support/ir.js';

const ir = await projectIr();
const arbitraries = typeArbitraries(ir);
const encoders = codecs as unknown as Record<string, (v: unknown) => string>;
const sample = (type: string) =>
  fc.sample(arbitraries.get(type)!, { seed: 7, numRuns: 1 })[0] as Record<string, unknown>;

/** What encoding `value` with one field replaced throws (undefined: nothing). */
function refusal(type: string, field: string, replacement: unknown): XmlEncodeError | undefined {
  const value = { ...sample(type), [field]: replacement };
  try {
    encoders[`encode${type}`]!(value);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(XmlEncodeError);
    return e as XmlEncodeError;
  }
}

describe('encoders refuse what the spec does not allow', () => {
  const types = ir.types.filter((t) => !t.abstract);

  it('undefined in every field that is not optional, naming Type.Field', () => {
    for (const t of types)
      for (const f of t.fields.filter((x) => !x.optional))
        expect(refusal(t.name, f.name, undefined)?.message, `${t.name}.${f.name}`).toMatch(
          new RegExp(`^${t.name}\\.${f.name}: required \\w+.*, got undefined$`),
        );
  });

  it('null in every field that is not nullable', () => {
    for (const t of types)
      for (const f of t.fields.filter((x) => !x.nullable))
        expect(refusal(t.name, f.name, null)?.message, `${t.name}.${f.name}`).toMatch(
          new RegExp(`^${t.name}\\.${f.name}: required .*, got null$`),
        );
  });

  it('a value of another kind in every field', () => {
    // Each scalar kind gets a value of a kind no field of it accepts.
    const wrong = { int: '5', string: 5, boolean: 'true', decimal: 12.5, dateTime: new Date(0) };
    for (const t of types)
      for (const f of t.fields) {
        const given = f.list ? {} : f.value.kind === 'scalar' ? wrong[f.value.scalar] : 'text';
        expect(refusal(t.name, f.name, given)?.path, `${t.name}.${f.name}`).toBe(
          `${t.name}.${f.name}`,
        );
      }
  });

  it('a bad item inside a list, naming the list field', () => {
    const t = ir.types.find((x) => x.name === 'BookingResponse')!;
    const f = t.fields.find((x) => x.list && x.value.kind === 'complex')!;
    expect(refusal(t.name, f.name, [null])?.message).toBe(
      `${t.name}.${f.name}: required ${f.value.kind === 'complex' ? f.value.typeName : ''}, got null`,
    );
  });

  const cases: { given: [type: string, field: string, value: unknown]; want: string }[] = [
    {
      given: ['EventDetailsResponse7', 'Code', undefined],
      want: 'EventDetailsResponse7.Code: required string, got undefined',
    },
    {
      given: ['BookingResponse', 'IsTest', undefined],
      want: 'BookingResponse.IsTest: required boolean, got undefined',
    },
    {
      given: ['BookingResponse', 'BookingId', '12'],
      want: 'BookingResponse.BookingId: required int, got "12"',
    },
    {
      given: ['BookingResponse', 'GrossCost', 10],
      want: 'BookingResponse.GrossCost: required decimal (a string of its digits), got 10',
    },
    {
      given: ['BookingResponse', 'Attendees', undefined],
      want: 'BookingResponse.Attendees: required list, got undefined',
    },
    {
      given: ['EventModel', 'Event', null],
      want: 'EventModel.Event: required Event, got null',
    },
  ];
  for (const { given, want } of cases)
    it(want, () => expect(refusal(...given)?.message).toBe(want));
});
