// The spec against the interface document: every operation, parameter, type and field the
// document gives (test/support/document-catalogue.ts, written from the document) is in the spec,
// named as the document names it on the wire. What a maintainer adds beyond the document does not
// fail here; losing or changing what the document says does.
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_CODES } from '@evgen/event-management/service';
import { loadIr } from '../../../src/generator/pipeline.js';
import { inventoryProblems } from '../../support/inventory.js';
import { projectIr } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

afterAll(removeSpecCopies);

const ADDITIONS: readonly SpecEdit[] = [
  // A field, an operation with a scalar result, a type, a parameter: the project's additions.
  {
    file: 'types/booking.yaml',
    from: '      - { name: SecureKey, type: string }',
    to: '      - { name: SecureKey, type: string }\n      - { name: Channel, type: string, optional: true }',
  },
  {
    file: 'operations.yaml',
    from: '  - name: GetBookingDetails\n',
    to: '  - name: GetAttendeeCount\n    purpose: Attendees of an event.\n    parameters:\n      - { name: eventId, type: int }\n    result: { kind: type, type: int, text: a count }\n    http: { shown: false, gap: http-note-a, root: int }\n\n  - name: GetBookingDetails\n',
  },
  {
    file: 'types/booking.yaml',
    from: 'types:\n',
    to: 'types:\n  - name: Channel\n    doc: A sales channel.\n    section: Additions\n    fields:\n      - { name: Code, type: string }\n\n',
  },
  {
    file: 'operations.yaml',
    from: '      - { name: roadshowId, type: int }',
    to: '      - { name: roadshowId, type: int }\n      - { name: region, type: string }',
  },
  {
    file: 'conformance.yaml',
    from: '    - { name: seriesValue, parameters: [seriesValue], option: series-value }',
    to: '    - { name: seriesValue, parameters: [seriesValue], option: series-value }\n    - { name: region, parameters: [region], fixed: EU }',
  },
  // A TypeScript-only rename: the document's names on the wire stay.
  {
    file: 'types/booking.yaml',
    from: '{ name: InvoiceUrl, type: string }',
    to: '{ name: InvoiceLink, xmlName: InvoiceUrl, type: string }',
  },
];

describe('spec inventory: the spec carries the document', () => {
  it('holds every operation, parameter, type and field the document gives', async () => {
    expect(inventoryProblems(await projectIr())).toEqual([]);
  });

  it('does not fail on additions beyond the document', async () => {
    expect(inventoryProblems(await loadIr(await specCopy(ADDITIONS)))).toEqual([]);
  });

  const LOSSES: { given: string; edits: SpecEdit[]; want: string }[] = [
    {
      given: 'a field removed',
      edits: [
        { file: 'types/booking.yaml', from: '      - { name: SecureKey, type: string }\n', to: '' },
      ],
      want: 'BookingDetails.SecureKey is missing',
    },
    {
      given: 'a field renamed on the wire',
      edits: [
        {
          file: 'types/booking.yaml',
          from: '{ name: InvoiceUrl, type: string }',
          to: '{ name: InvoiceUrl, xmlName: InvoiceLink, type: string }',
        },
      ],
      want: 'BookingDetails.InvoiceUrl is missing',
    },
    {
      given: 'a field retyped',
      edits: [
        {
          file: 'types/booking.yaml',
          from: '{ name: AttendeeCount, type: int }',
          to: '{ name: AttendeeCount, type: string }',
        },
      ],
      want: 'BookingDetails.AttendeeCount: string, the document says int',
    },
    {
      given: 'a nullable field no longer nullable',
      edits: [
        {
          file: 'types/ticketing.yaml',
          from: '{ name: Capacity, type: int, nullable: true }',
          to: '{ name: Capacity, type: int }',
        },
      ],
      want: 'TicketTypeResponse.Capacity: int, the document says int?',
    },
    {
      given: "fields reordered where the wire order is the document's",
      edits: [
        { file: 'types/booking.yaml', from: '      - { name: SecureKey, type: string }\n', to: '' },
        {
          file: 'types/booking.yaml',
          from: '{ name: InvoiceUrl, type: string }',
          to: '{ name: SecureKey, type: string }\n      - { name: InvoiceUrl, type: string }',
        },
      ],
      want: "BookingDetails: fields out of the document's order",
    },
    {
      given: 'an operation removed',
      edits: [
        {
          file: 'operations.yaml',
          from: '  - name: GetBookingDetails\n',
          to: '  - name: GetBookingSummary\n',
        },
      ],
      want: 'operation GetBookingDetails is missing',
    },
    {
      given: 'a parameter renamed',
      edits: [
        {
          file: 'operations.yaml',
          from: '      - { name: roadshowId, type: int }',
          to: '      - { name: roadshow, type: int }',
        },
        {
          file: 'conformance.yaml',
          from: 'parameters: [roadshowId]',
          to: 'parameters: [roadshow]',
        },
      ],
      want: 'GetTicketTypesByRoadshowId: parameter roadshowId is missing',
    },
  ];
  for (const c of LOSSES)
    it(`fails on ${c.given}`, async () => {
      expect(inventoryProblems(await loadIr(await specCopy(c.edits)))).toContain(c.want);
    });
});

describe('spec inventory: what the document notes', () => {
  it('records the notes and variants the document gives', async () => {
    const ir = await projectIr();
    const field = (t: string, f: string) =>
      ir.types.find((x) => x.name === t)!.fields.find((x) => x.name === f)!;
    for (const f of ['PAName', 'Fax', 'Mobile', 'Website'])
      expect(field('AttendeeResponse', f).optional).toBe(true);
    for (const f of ['MinAge', 'ExternalSite'])
      expect(field('TicketTypeResponse', f).optional).toBe(true);
    expect(field('TicketTypeResponse', 'GrossPrice').value).toEqual({
      kind: 'scalar',
      scalar: 'decimal',
      scale: 5,
    });
    expect(field('BookingResponse', 'GrossCost').value).toEqual({
      kind: 'scalar',
      scalar: 'decimal',
      scale: 2,
    });
    expect(field('BookingExtResponse', 'Attendees').value).toEqual({
      kind: 'complex',
      typeName: 'AttendeeExtResponse',
    });
    expect(field('AttendeeResponse', 'Attendance')).toMatchObject({
      nullable: true,
      list: { itemElement: 'dateTime' },
    });
    expect(field('EventDetailsResponse3', 'ExternalURLPwd')).toBeDefined();
    expect(
      ir.types.find((t) => t.name === 'EventDetailsResponse7')!.fields.map((f) => f.name),
    ).not.toContain('ExternalURLPwd');
  });

  it('names result and HTTP root elements by the catalogue', async () => {
    const ir = await projectIr();
    const op = (n: string) => ir.operations.find((o) => o.name === n)!;
    expect(op('CancelAttendee').result).toEqual({ kind: 'none' });
    expect(op('CancelBooking').httpRoot).toBeNull();
    expect(op('GetBookings')).toMatchObject({
      httpRoot: 'ArrayOfBookingResponse',
      httpShapeShown: true,
      resultElement: 'GetBookingsResult',
    });
    expect(op('GetBooking')).toMatchObject({ httpRoot: 'BookingResponse', httpShapeShown: false });
    expect(op('GetSubClientCompanyList').result).toMatchObject({
      kind: 'list',
      itemElement: 'GetSubClientCompanyListResponse',
    });
    expect(op('GetBookingsBatch').parameters.map((p) => `${p.name}:${p.scalar}`)).toEqual([
      'eventId:int',
      'skip:int',
      'size:int',
    ]);
    expect(ir.operations.filter((o) => o.mutating).map((o) => o.name)).toEqual([
      'CancelAttendee',
      'CancelBooking',
      'VerifyTokenForContact',
      'SubmitSimpleBookingWithBookingStatus',
    ]);
  });

  it('registers every "not shown" gap of the document', async () => {
    const ir = await projectIr();
    expect(ir.gaps.length).toBeGreaterThanOrEqual(26);
    expect(new Set(ir.gaps.map((g) => g.id)).size).toBe(ir.gaps.length);
  });

  it('generates exactly the fault codes of spec/errors.yaml', async () => {
    const ir = await projectIr();
    expect(ir.faults.map((f) => f.code)).toEqual([...FAULT_CODES]);
    expect(ir.faults.filter((f) => f.soap11 === 'soap:Server').map((f) => f.code)).toEqual([
      'NotImplemented',
      'Unavailable',
      'Internal',
    ]);
    // Unavailable's 503 is about the exchange (transportStatuses): SOAP keeps it; the others do not.
    expect(ir.faults.filter((f) => f.soap11Status !== 500).map((f) => f.code)).toEqual([
      'Unavailable',
    ]);
  });
});
