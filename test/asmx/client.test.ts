// The generated client against a real ASMX runtime: Mono's System.Web.Services serving the service
// `wsdl -server` generates from our WSDL (server.ts), with the fixed data of Fixed.cs. Every
// operation over every binding reads the value .NET wrote (nulls left out, nil nullable values,
// .NET's date and decimal forms), the same on each binding; faults come back with their code, or
// with ASMX's exception type and message where ASMX names no code.
import { describe, expect, inject, it } from 'vitest';
import { ServiceError } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { BINDING_IDS } from '@evgen/event-management/service';
import { OPERATION_NAMES, type OperationName } from '@evgen/event-management/types';
import { projectIr } from '../support/ir.js';
import { received } from './dotnet.js';
import { ASMX_KEY, ASMX_NAMESPACE } from './server.js';

const ir = await projectIr();
const EMAIL = 'ada@example.org';
const of = (typeName: string, given: Record<string, unknown>) => received(ir, typeName, given);

const client = (binding: (typeof BINDING_IDS)[number], secretKey = ASMX_KEY.secretKey) =>
  new EventServiceClient({
    baseUrl: inject('asmxUrl'),
    namespace: ASMX_NAMESPACE,
    apiKey: ASMX_KEY.apiKey,
    secretKey,
    binding,
    timeoutMs: 20_000,
  });

const TICKET = {
  TicketTypeId: 77,
  Name: 'Standard',
  GrossPrice: '12.50000', // 12.5m on the wire: C# keeps the scale it was given
  TaxRate: '0.20000',
  AttendeeCount: 4,
  NumberOfDaysValid: 2,
  IsOpen: true,
  AvailabilityStartDate: '2026-01-01T00:00:00',
  AvailabilityEndDate: '2026-04-30T23:00:00', // DateTimeKind.Utc: …Z on the wire
  TicketTypeDays: [],
};
const ATTENDEES = [
  {
    AttendeeId: 1,
    AttendeeReference: 'AT-1',
    AttendeeStatus: 'Attending',
    DateCreated: '2026-03-01T10:00:00', // DateTimeKind.Local: an offset on the wire
    AttendeeType: 'Delegate',
    AttendeeTypeId: 11,
    TicketTypeId: 77,
    Forename: 'Ada',
    Surname: 'Lovelace',
    Email: EMAIL,
    IsLeadAttendee: true,
    CustomFieldValues: [],
  },
  {
    AttendeeId: 2,
    AttendeeReference: 'AT-2',
    Title: 'Dr',
    Forename: 'Charles',
    Attendance: ['2026-05-01T00:00:00'],
    DateCreated: '2026-03-01T10:00:00.1234567',
  },
];
const BOOKING = of('BookingResponse', {
  BookingId: 9001,
  BookingReference: 'BK-9001',
  BookingStatus: 'Confirmed',
  CreatedDate: '2026-03-01T10:00:00',
  GrossCost: '120.00',
  NetCost: '100.00',
  Tax: '20.00',
  Attendees: ATTENDEES,
});

/** Every operation, with the parameters it is called with and what the client must read. */
const CALLS: readonly { op: OperationName; params: object; want: unknown }[] = [
  { op: 'CancelAttendee', params: { attendeeReference: 'AT-1' }, want: undefined },
  { op: 'CancelBooking', params: { bookingReference: 'BK-9001' }, want: undefined },
  { op: 'GetAccommodation', params: { eventId: 501 }, want: {} },
  { op: 'GetAccommodation', params: { eventId: 502 }, want: undefined }, // a null result
  {
    op: 'GetAttendeeTypes',
    params: { eventId: 501 },
    want: [
      of('AttendeeTypeResponse', { AttendeeTypeId: 11, Name: 'Delegate', TicketTypes: [TICKET] }),
    ],
  },
  {
    op: 'GetBookableSessions',
    params: { eventId: 501 },
    want: [
      of('BookableSessionResponse', {
        BookableSessionId: 31,
        Title: 'Workshop',
        Code: '',
        Capacity: 20,
        StartDateTime: '2026-05-01T14:00:00',
        EndDateTime: '2026-05-01T15:00:00.5',
        TaxRate: '0.20000',
        GrossPrice: '25.50000',
        MaximumGuests: 3,
      }),
    ],
  },
  {
    op: 'GetBookingDetails',
    params: { bookingId: 9001 },
    want: of('BookingDetails', {
      BookingId: 9001,
      BookingReference: 'BK-9001',
      AttendeeCount: 2,
      SecureKey: 'a1b2c3',
      LeadAttendeeReference: 'AT-1',
    }),
  },
  { op: 'GetBooking', params: { bookingId: 9001 }, want: BOOKING },
  { op: 'GetBookings', params: { eventId: 501, skip: 0 }, want: [BOOKING] },
  { op: 'GetBookingsBatch', params: { eventId: 501, skip: 0, size: 5 }, want: [BOOKING] },
  {
    op: 'GetExtBookings',
    params: { eventId: 501, skip: 0 },
    want: [
      of('BookingExtResponse', {
        BookingId: 9001,
        BookingReference: 'BK-9001',
        CreatedDate: '2026-03-01T10:00:00',
        GrossCost: '120.00',
        NetCost: '100.00',
        Tax: '20.00',
        Attendees: [
          {
            AttendeeId: 1,
            AttendeeReference: 'AT-1',
            Email: EMAIL,
            IsLeadAttendee: true,
            AttendedStatus: true,
            DateCreated: '2026-03-01T10:00:00',
          },
        ],
      }),
    ],
  },
  {
    op: 'GetContact',
    params: { email: EMAIL },
    want: of('ContactResponse', {
      Forename: 'Ada',
      Surname: 'Lovelace',
      Email: EMAIL,
      ContactId: 3,
    }),
  },
  {
    op: 'GetContact2',
    params: { emailAddress: EMAIL },
    want: of('ContactResponse2', { ContactId: 3, Reg_Status: 1, Forename: 'Ada', Email: EMAIL }),
  },
  {
    op: 'VerifyTokenForContact',
    params: { tokenType: 'ContactRegistration', tokenValue: 'tok-1' },
    want: { ContactId: 3, ContactEmail: EMAIL },
  },
  {
    op: 'EventProfileSearch',
    params: { searchQuery: '' },
    want: {
      Events: [
        {
          Event: of('Event', {
            EventId: 501,
            Title: 'Conference',
            Code: 'C501',
            DefaultTaxRate: '0.20000',
            StartDate: '2026-05-01T09:00:00',
            EndDate: '2026-05-02T17:00:00',
            ClientCompanyReference: {}, // Entity Framework's EntityKey inside: ignored
          }),
        },
      ],
    },
  },
  {
    op: 'GetShows',
    params: {},
    want: [
      of('ShowResponse', {
        ShowId: 1,
        Name: 'Hamlet',
        Revenue: '1500.00',
        StartDate: '2026-06-01T00:00:00',
        EndDate: '2026-06-30T00:00:00',
        ShowPerformance: [
          {
            ShowPerformanceID: 2,
            Name: 'Opening night',
            Date: '2026-06-01T00:00:00',
            StartTime: '2026-06-01T19:00:00',
            EndTime: '2026-06-01T22:00:00',
            Revenue: '100.10',
            Stocktotal: '5.00',
          },
        ],
      }),
    ],
  },
  {
    op: 'GetEventDetails7',
    params: { eventId: 501 },
    want: of('EventDetailsResponse7', {
      EventId: 501,
      Title: 'Conference',
      Code: 'C501',
      Code_Series: 'S1',
      RoadshowId: 7,
      StartDate: '2026-05-01T09:00:00.1234567',
      Venues: [1, 2],
      Links: [],
      Profiles: [{ ProfileTypeId: 1, ProfileType: 'Sector' }],
    }),
  },
  {
    op: 'GetEventDetails3',
    params: { eventId: 501 },
    want: of('EventDetailsResponse3', { EventId: 501, Title: 'Conference', Code_Series: 'S1' }),
  },
  {
    op: 'GetContactEventHistory3',
    params: { email: EMAIL },
    want: [
      of('ContactEventHistoryResponse3', {
        EventId: 501,
        EventTitle: 'Conference',
        RegDate: '2026-03-01T10:00:00',
      }),
    ],
  },
  {
    op: 'GetTicketTypesByRoadshowId',
    params: { roadshowId: 7 },
    want: [
      of('EventBasicWithTicketTypeResponse', {
        EventId: 501,
        Title: 'Conference',
        StartDate: '2026-05-01T09:00:00',
        EndDate: '2026-05-02T17:00:00',
        MaxAllowableGuestsOnRoadshow: 2,
        TicketTypes: [{ ...TICKET, MinAge: 18 }],
      }),
    ],
  },
  {
    op: 'GetSubmissionsForEvent2',
    params: { eventId: 501, clientUserId: 1 },
    want: [
      of('SubmissionBasicResponse', {
        EventId: 501,
        BookingId: 9001,
        AbstractTitle: 'On engines',
        Authors: [{ AttendeeId: 1 }],
      }),
    ],
  },
  {
    op: 'GetCalendarEventsByDateRange',
    params: {
      fromDate: '2026-01-01T00:00:00',
      toDate: '2026-12-31T00:00:00',
      includeArchived: true,
    },
    want: of('CalendarEventsResponse', {
      SystemOwnerEmail: 'owner@example.org',
      Events: [
        { EventId: 501, Title: 'Conference', StartDate: '2026-05-01T09:00:00', NumAttendees: 42 },
      ],
    }),
  },
  {
    op: 'GetCalendarAttendeesForEvent',
    params: { eventId: 501 },
    want: { Title: 'Conference', Attendees: [] },
  },
  {
    op: 'GetEventsByContactId',
    params: { contactId: 3, includeArchived: true, isTestBookingForm: false },
    want: [
      of('ContactEventResponse', {
        ContactId: 3,
        EventId: 501,
        EventName: 'Conference',
        StartDateAndTime: '01/05/2026 09:00',
      }),
    ],
  },
  { op: 'GetSpeakersforSeries', params: { seriesValue: 'S1' }, want: undefined }, // a null list
  {
    op: 'GetAttendeeStatuses',
    params: { eventId: 501 },
    want: [
      of('AttendeeStatusResponse', {
        AttendeeStatusId: 1,
        Name: 'Attending',
        IsAttending: true,
        IsDefault: true,
        EventId: 501,
        LinkedBookingStatusId: 3,
      }),
    ],
  },
  {
    op: 'GetCustomFields',
    params: { eventId: 501 },
    want: [{ CustomFieldId: 5, Name: 'Diet', Type: 'Text', Values: ['None', 'Vegan'] }],
  },
  {
    op: 'SubmitSimpleBookingWithBookingStatus',
    params: {
      eventId: 501,
      attendeeTypeId: 11,
      ticketTypeId: 77,
      bookingStatusId: 3,
      contactId: 3,
    },
    want: {
      BookingId: 9002,
      AttendeeId: 2,
      AttendeeTypeId: 11,
      TicketTypeId: 77,
      ContactId: 3,
      EventId: 501,
      BookingReference: 'BK-9002',
    },
  },
  {
    op: 'GetSubClientCompanyList',
    params: {},
    want: [of('GetSubClientCompanyListResponse', { Name: 'Division 1', ClientCompanyId: 1 })],
  },
];

const method = (op: OperationName) => `${op.charAt(0).toLowerCase()}${op.slice(1)}`;
type Call = (params: object, options?: object) => Promise<unknown>;
const call = (c: EventServiceClient, op: OperationName): Call =>
  (c as unknown as Record<string, Call>)[method(op)]!.bind(c);

describe('every operation over every binding reads what .NET wrote', () => {
  it('calls every operation of the catalogue', () => {
    expect([...new Set(CALLS.map((c) => c.op))].sort()).toEqual([...OPERATION_NAMES].sort());
  });

  it.each(CALLS.flatMap((c) => BINDING_IDS.map((binding) => ({ ...c, binding }))))(
    '$op $params over $binding',
    async ({ op, params, want, binding }) => {
      expect(await call(client(binding), op)(params)).toStrictEqual(want);
    },
  );
});

/** Faults as ASMX answers them: SOAP faults carry the detail Fixed.cs writes; HTTP a .NET text. */
const FAULTS: readonly {
  op: OperationName;
  params: object;
  secretKey?: string;
  soap: { code: string; faultString: string; exceptionType: string };
  http: { code: string; faultString: string; exceptionType: string };
}[] = [
  {
    op: 'GetBookingDetails',
    params: { bookingId: 404 },
    soap: {
      code: 'NotFound',
      faultString: 'no booking 404',
      exceptionType: 'System.Web.Services.Protocols.SoapException',
    },
    http: {
      code: 'Unknown',
      faultString: 'no booking 404',
      exceptionType: 'System.Web.Services.Protocols.SoapException',
    },
  },
  {
    op: 'CancelBooking',
    params: { bookingReference: 'BK-404' },
    soap: {
      code: 'Unknown',
      faultString: 'no booking BK-404',
      exceptionType: 'System.ArgumentException',
    },
    http: {
      code: 'Unknown',
      faultString: 'no booking BK-404',
      exceptionType: 'System.ArgumentException',
    },
  },
  {
    op: 'GetAttendeeStatuses',
    params: { eventId: 501 },
    secretKey: 'not-the-secret',
    soap: {
      code: 'AuthenticationFailed',
      faultString: 'wrong Signature',
      exceptionType: 'System.Web.Services.Protocols.SoapException',
    },
    http: {
      code: 'Unknown',
      faultString: 'wrong Signature',
      exceptionType: 'System.Web.Services.Protocols.SoapException',
    },
  },
];

describe('faults: a code where the answer names one, else the exception type and its message', () => {
  it.each(FAULTS.flatMap((f) => BINDING_IDS.map((binding) => ({ ...f, binding }))))(
    '$op $params over $binding',
    async ({ op, params, secretKey, soap, http, binding }) => {
      const kind = binding.startsWith('http') ? http : soap;
      const e = await call(client(binding, secretKey), op)(params).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ServiceError);
      expect(e).toMatchObject({ ...kind, httpStatus: 500, binding });
    },
  );
});
