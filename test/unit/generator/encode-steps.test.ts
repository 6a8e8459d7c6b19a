// The encoder's statements (codecs-view.ts encodeSteps): required fields in a row become one
// expression whose literals join each end tag to the next start tag; an optional or nullable field
// is a statement of its own and ends the run. Then the same rule through a generated encoder.
import { describe, expect, it } from 'vitest';
import { encodeSteps, type FieldCodecView } from '../../../src/generator/views/codecs-view.js';
import { encodeBookingResponse } from '@evgen/event-management/codecs';
import { bookings } from '../../../src/bench/samples.js';

const field = (xmlName: string, shape: 'required' | 'optional' | 'nullable') =>
  ({ name: xmlName, xmlName, shape, content: `c(${xmlName})` }) as FieldCodecView;
/** Each step as text: a run as its literals and contents in order, any other as its partial. */
const show = (steps: ReturnType<typeof encodeSteps>) =>
  steps.map((s) =>
    'pieces' in s
      ? [...s.pieces.flatMap((p) => [p.before, p.content]), s.after].join(' ')
      : `${s.partial} ${s.xmlName}`,
  );

describe('encodeSteps', () => {
  it.each([
    { given: [], want: [] },
    { given: [field('A', 'required')], want: ['<A> c(A) </A>'] },
    {
      given: [field('A', 'required'), field('B', 'required'), field('C', 'required')],
      want: ['<A> c(A) </A><B> c(B) </B><C> c(C) </C>'],
    },
    {
      given: [field('A', 'required'), field('B', 'optional'), field('C', 'required')],
      want: ['<A> c(A) </A>', 'encode-optional B', '<C> c(C) </C>'],
    },
    {
      given: [field('A', 'nullable'), field('B', 'required'), field('C', 'required')],
      want: ['encode-nullable A', '<B> c(B) </B><C> c(C) </C>'],
    },
    {
      given: [field('A', 'optional'), field('B', 'nullable')],
      want: ['encode-optional A', 'encode-nullable B'],
    },
  ])('$want', ({ given, want }) => {
    expect(show(encodeSteps(given))).toEqual(want);
  });
});

describe('a generated encoder written in runs', () => {
  it('writes every field once, in the spec order, each element closed before the next opens', () => {
    const [b] = bookings(1);
    const xml = encodeBookingResponse(b!);
    const tops = [...xml.matchAll(/<(\w+)>/g)].map((m) => m[1]);
    expect(tops.slice(0, 8)).toEqual([
      'BookingId',
      'BookingReference',
      'BookingStatus',
      'CreatedDate',
      'GrossCost',
      'NetCost',
      'Tax',
      'IsTest',
    ]);
    expect(xml).toContain(
      '<BookingId>1</BookingId><BookingReference>CONF001-000001</BookingReference>',
    );
    expect(xml).toContain('<Tax>40.00</Tax><IsTest>true</IsTest><Attendees>');
  });
});
