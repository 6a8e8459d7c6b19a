// decode(encode(x)) equals x for every complex type, with nil fields, empty and one-item lists,
// decimals at the edge of their scale, int32 bounds and strings full of markup characters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as codecs from '@evgen/event-management/codecs';
import { XSI_XSD_DECLARATIONS, readXml } from '@evgen/runtime/internal';
import { typeArbitraries } from '../../support/arbitraries.js';
import { projectIr } from '../../support/ir.js';

const NS = 'https://events.example.com/API/1_0/SOAP/';
const ir = await projectIr();
const arbitraries = typeArbitraries(ir);
const table = codecs as unknown as Record<string, (...args: unknown[]) => unknown>;

function roundTrip(typeName: string, value: unknown): unknown {
  const xml = `<${typeName}${XSI_XSD_DECLARATIONS} xmlns="${NS}">${table[`encode${typeName}`]!(value) as string}</${typeName}>`;
  return table[`decode${typeName}`]!(readXml(xml), 0, NS);
}

describe('codec round trip', () => {
  for (const [name, arb] of arbitraries) {
    it(`${name}: decode(encode(x)) = x`, () => {
      fc.assert(
        fc.property(arb, (x) => {
          expect(roundTrip(name, x)).toEqual(x);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('covers every non-abstract type', () => {
    expect([...arbitraries.keys()].sort()).toEqual(
      ir.types
        .filter((t) => !t.abstract)
        .map((t) => t.name)
        .sort(),
    );
  });

  it('writes nil, list wrappers, lowercase booleans and decimal scale the document way', () => {
    const xml = codecs.encodeTicketTypeResponse({
      TicketTypeId: 7,
      Name: 'Early <bird> & co',
      Capacity: null,
      GrossPrice: '12.5',
      TaxRate: '0.2',
      AttendeeTypes: [1, 2],
      AttendeeCount: 0,
      NumberOfDaysValid: null,
      IsOpen: true,
      AvailabilityStartDate: '2026-01-02T03:04:05',
      AvailabilityEndDate: '2026-12-31T23:59:59',
      AttendanceType: [],
      TicketTypeDays: [{ Date: '2026-06-01T00:00:00' }],
    });
    expect(xml).toContain('<Name>Early &lt;bird&gt; &amp; co</Name>');
    expect(xml).toContain('<Capacity xsi:nil="true" />');
    expect(xml).toContain('<GrossPrice>12.50000</GrossPrice><TaxRate>0.20000</TaxRate>');
    expect(xml).toContain('<AttendeeTypes><int>1</int><int>2</int></AttendeeTypes>');
    expect(xml).toContain('<IsOpen>true</IsOpen>');
    expect(xml).toContain('<AttendanceType></AttendanceType>');
    expect(xml).toContain(
      '<TicketTypeDays><TicketTypeDayResponse><Date>2026-06-01T00:00:00</Date></TicketTypeDayResponse></TicketTypeDays>',
    );
    expect(xml).not.toContain('MinAge');
  });

  it('never rounds money', () => {
    const booking = {
      BookingId: 1,
      BookingReference: 'R',
      BookingStatus: 'Confirmed',
      CreatedDate: '2026-01-01T00:00:00',
      GrossCost: '10.005',
      NetCost: '10.00',
      Tax: '0.00',
      IsTest: false,
      Attendees: [],
    };
    expect(() => codecs.encodeBookingResponse(booking)).toThrow(/BookingResponse\.GrossCost/);
  });
});
