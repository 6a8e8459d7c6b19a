// What the spec holds, counted against the interface document: a drift in any count fails here.
import { describe, expect, it } from 'vitest';
import { FAULT_CODES } from '@evgen/event-management/service';
import { DOCUMENT_OPERATIONS } from '../../support/document-catalogue.js';
import { projectIr } from '../../support/ir.js';

// Field counts per type, inherited fields included. Types marked (gap) are the project's decision
// where the document says "not shown" (spec/gaps.yaml).
const FIELD_COUNTS: Record<string, number> = {
  AccommodationResponse: 0, // (gap) accommodation-content
  AttendeeExtResponse: 34, // AttendeeResponse + CountryCode, AttendedStatus
  AttendeeResponse: 32,
  AttendeeStatusResponse: 7,
  AttendeeTicketTypeResponse: 4,
  AttendeeTypeResponse: 3,
  AuthorResponse: 2,
  BookableSessionResponse: 17,
  BookableSessionSignupResponse: 3, // (gap) attendee-list-items
  BookingDetails: 6,
  BookingExtResponse: 9,
  BookingResponse: 9,
  CalendarAttendeeResponse: 8,
  CalendarAttendeesResponse: 6,
  CalendarEventResponse: 10,
  CalendarEventsResponse: 3,
  CollaboratorResponse: 5,
  ContactEventHistoryResponse3: 32,
  ContactEventResponse: 7,
  ContactResponse: 20, // (gap) contact-response-fields
  ContactResponse2: 33,
  ContactTokenResponse: 2,
  CustomFieldResponse: 4,
  CustomFieldValueResponse: 3, // (gap) attendee-list-items
  EntityReference: 0, // (gap) reference-element-types
  Event: 66, // 3 int, 34 string, 7 dateTime, 1 decimal, 14 boolean, 7 references
  EventBasicWithTicketTypeResponse: 6,
  EventDetailsCommon: 41, // abstract: the fields common to versions 3 and 7
  EventDetailsResponse3: 42,
  EventDetailsResponse7: 49,
  EventModel: 2,
  EventProfileSearchResponseModel: 1,
  GetSubClientCompanyListResponse: 3,
  ProfileValue: 2,
  ProfileValueByEvent: 3,
  ReservationResponse: 3, // (gap) attendee-list-items
  ShowPerformanceResponse: 22,
  ShowResponse: 21,
  SimpleBookingResponse: 7,
  SpeakerSeriesResponse: 8,
  SubmissionBasicResponse: 16,
  TicketAttendanceTypeResponse: 2,
  TicketTypeDayResponse: 1,
  TicketTypeResponse: 15,
  WebsiteModel: 4, // (gap) website-model
};

describe('spec inventory', () => {
  it('holds the operations of the catalogue, in order', async () => {
    const ir = await projectIr();
    expect(ir.operations.map((o) => o.name)).toEqual(DOCUMENT_OPERATIONS);
  });

  it('holds every complex type with its field count', async () => {
    const ir = await projectIr();
    expect(Object.fromEntries(ir.types.map((t) => [t.name, t.fields.length]))).toEqual(
      FIELD_COUNTS,
    );
  });

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
