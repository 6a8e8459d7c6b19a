// What an ASMX service writes for a null value: nothing, for a string, list or complex value that
// is not nillable (its XmlSerializer omits the element), and no Result element (SOAP) or a nil root
// (HTTP GET/POST) for a null result. The generated decoders take those answers (gap
// omitted-values); value types and nillable fields, which ASMX always writes, stay required.
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LocalDateTime } from '@evgen/runtime';
import { XmlWriter, readSoapEnvelope, readXml, writeSoapEnvelope } from '@evgen/runtime/internal';
import type { EventServiceClient } from '@evgen/event-management/client';
import { operations } from '@evgen/event-management/operations';
import type { ServiceHandlers } from '@evgen/event-management/server';
import type {
  AttendeeResponseReceived,
  BookingDetails,
  BookingDetailsReceived,
  BookingResponseReceived,
} from '@evgen/event-management/types';
import { typeArbitraries } from '../../support/arbitraries.js';
import { projectIr } from '../../support/ir.js';

const NS = 'https://events.example.com/API/1_0/SOAP/';
const ir = await projectIr();
const arbs = typeArbitraries(ir);
type Def = (typeof operations)['GetBooking'];
const table = operations as unknown as Record<string, Def>;

/** A full result of `op` (every list with two items, so an inner element is dropped twice). */
function sampleResult(opName: string, seed: number): unknown {
  const r = ir.operations.find((o) => o.name === opName)!.result;
  if (r.kind === 'none') return undefined;
  const typeName = (r.value as { typeName: string }).typeName;
  const one = () => fc.sample(arbs.get(typeName)!, { seed, numRuns: 1 })[0];
  return r.kind === 'value' ? one() : [one(), one()];
}

/** The answer of each binding family, as our encoder writes it. */
function answers(def: Def, value: unknown): { soap11: string; soap12: string; http: string } {
  const soap = new XmlWriter();
  def.encodeSoapResponse(value as never, NS, soap);
  const http = new XmlWriter();
  def.encodeHttpResponse(value as never, NS, http);
  return {
    soap11: writeSoapEnvelope('1.1', undefined, soap.toString()),
    soap12: writeSoapEnvelope('1.2', undefined, soap.toString()),
    http: http.toString(),
  };
}

const decode = (def: Def, family: 'soap11' | 'soap12' | 'http', xml: string): unknown => {
  const d = readXml(xml);
  return family === 'http'
    ? def.decodeHttpResponse(d, NS)
    : def.decodeSoapResponse(d, readSoapEnvelope(d).payload, NS);
};

/** `value` without the key `name`, wherever it is (the element was dropped everywhere). */
function without(value: unknown, name: string): unknown {
  if (Array.isArray(value)) return value.map((v) => without(v, name));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== name)
      .map(([k, v]) => [k, without(v, name)]),
  );
}

/** Every element named `name` (a string, or a list of values) taken out of `xml`. */
const drop = (xml: string, name: string) =>
  xml.replace(new RegExp(`<${name}>.*?</${name}>|<${name}\\s*/>`, 'g'), '');

/** The first sample (by seed) in whose answer `name` occurs, so that dropping it changes it. */
function sampleHolding(op: string, name: string) {
  for (let seed = 1; ; seed++) {
    const value = sampleResult(op, seed);
    const xml = answers(table[op]!, value);
    if (drop(xml.soap11, name) !== xml.soap11) return { value, xml };
  }
}

// The calls of the run against Mono's ASMX, each with the null column that lost it.
const OMITTED = [
  { op: 'GetEventDetails7', drop: 'MediumDescription' },
  { op: 'GetBookingDetails', drop: 'InvoiceUrl' },
  { op: 'GetBookingsBatch', drop: 'Title' },
  { op: 'GetContact', drop: 'Title' },
  { op: 'GetAttendeeStatuses', drop: 'StatusType' },
  { op: 'EventProfileSearch', drop: 'InvoiceReferencePrefix' },
  { op: 'GetEventDetails7', drop: 'Profiles' }, // a list
] as const;

const FAMILIES = ['soap11', 'soap12', 'http'] as const;

describe('an element a null reference value leaves out is absent from the decoded value', () => {
  it.each(OMITTED.flatMap((c) => FAMILIES.map((family) => ({ ...c, family }))))(
    '$op without $drop ($family)',
    ({ op, drop: name, family }) => {
      const { value, xml } = sampleHolding(op, name);
      expect(decode(table[op]!, family, drop(xml[family], name))).toEqual(without(value, name));
    },
  );
});

describe('a null result: no Result element (SOAP), a nil root (HTTP GET/POST)', () => {
  const RESULTS = ['GetBookingDetails', 'GetBookingsBatch', 'GetEventDetails7'] as const;
  it.each(RESULTS.flatMap((op) => FAMILIES.map((family) => ({ op, family }))))(
    '$op ($family) reads as undefined',
    ({ op, family }) => {
      const def = table[op]!;
      const root = ir.operations.find((o) => o.name === op)!.httpRoot!;
      const xml =
        family === 'http'
          ? `<?xml version="1.0" encoding="utf-8"?><${root} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" xmlns="${NS}" />`
          : writeSoapEnvelope(
              family === 'soap11' ? '1.1' : '1.2',
              undefined,
              `<${op}Response xmlns="${NS}" />`,
            );
      expect(decode(def, family, xml)).toBeUndefined();
    },
  );
});

describe('value types and nillable fields stay required: ASMX always writes them', () => {
  const REQUIRED = [
    { op: 'GetBookingDetails', drop: 'BookingId', path: 'GetBookingDetailsResult/BookingId' },
    {
      op: 'GetBookingsBatch',
      drop: 'Attendance',
      path: 'GetBookingsBatchResult/BookingResponse[0]/Attendees/AttendeeResponse[0]/Attendance',
    },
    {
      op: 'GetEventDetails7',
      drop: 'StartDate',
      path: 'GetEventDetails7Result/StartDate',
    },
  ] as const;
  it.each(REQUIRED)('$op without $drop is refused at $path', ({ op, drop: name, path }) => {
    const value = sampleResult(op, 11);
    const xml = answers(table[op]!, value).soap11;
    const dropped = xml.replace(new RegExp(`<${name}( xsi:nil="true" />|>.*?</${name}>)`, 'g'), '');
    expect(() => decode(table[op]!, 'soap11', dropped)).toThrow(
      `${path}: expected an element, got nothing`,
    );
  });
});

describe('the types say so: handlers return every field, clients may receive fewer', () => {
  it('written types keep every field; received types make the omittable ones optional', () => {
    expectTypeOf<BookingDetails['InvoiceUrl']>().toEqualTypeOf<string>();
    expectTypeOf<BookingDetailsReceived['InvoiceUrl']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<BookingDetailsReceived['BookingId']>().toEqualTypeOf<number>();
    expectTypeOf<BookingResponseReceived['Attendees']>().toEqualTypeOf<
      AttendeeResponseReceived[] | undefined
    >();
    expectTypeOf<AttendeeResponseReceived['Attendance']>().toEqualTypeOf<LocalDateTime[] | null>();
  });

  it('the client returns the received form, handlers return the written one', () => {
    expectTypeOf<ReturnType<EventServiceClient['getBookingDetails']>>().toEqualTypeOf<
      Promise<BookingDetailsReceived | undefined>
    >();
    expectTypeOf<
      Awaited<ReturnType<ServiceHandlers['getBookingDetails']>>
    >().toEqualTypeOf<BookingDetails>();
  });
});
