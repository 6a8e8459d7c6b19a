// The defect cases of the conformance test double: which check each defect must fail, at which
// level, with which message; and one memoised run of the checker per (defect, hostile) so that the
// tests asserting each case and the coverage meta-test share them.
import type { ConformanceReport } from '@evgen/runtime';
import { checkConformance, CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import type { ASMX_FORMS, Defect } from '../../support/double/defects.js';
import { ATTENDEE_REFERENCE, BOOKING_REFERENCE } from '../../support/double/people.js';
import { BOOKING_ID } from '../../support/double/records.js';
import { DOUBLE_KEY, startDouble, type Double } from '../../support/double/server.js';

const doubles: Double[] = [];
const runs = new Map<string, Promise<ConformanceReport>>();

/**
 * The report of the checker (level evgen) against the double switched to `defect`, run once. With
 * `writes`, the writes run too, on the booking and attendee the double knows. Hostile checks wait
 * 1 s for an answer, or with `defaultWait` the checker's default: what a server whose read
 * time-out is shorter than that default must fail under.
 */
export function reportOf(
  defect: Defect | undefined,
  hostile = false,
  o: { writes?: boolean; defaultWait?: boolean } = {},
): Promise<ConformanceReport> {
  const writes = o.writes ?? false;
  const key = `${defect ?? ''}|${hostile}|${writes}|${o.defaultWait ?? false}`;
  let r = runs.get(key);
  if (!r) {
    r = startDouble(defect).then((d) => {
      doubles.push(d);
      return checkConformance({
        url: d.url,
        ...DOUBLE_KEY,
        level: 'evgen',
        hostile,
        ...(o.defaultWait ? {} : { hostileWaitMs: 1_000 }),
        allowWrites: writes,
        values: {
          bookingId: String(BOOKING_ID),
          ...(writes
            ? { bookingReference: BOOKING_REFERENCE, attendeeReference: ATTENDEE_REFERENCE }
            : {}),
        },
      });
    });
    runs.set(key, r);
  }
  return r;
}

export const closeDoubles = (): Promise<void[]> => Promise.all(doubles.map((d) => d.close()));

const cal = 'GetCalendarEventsByDateRangeResult/Events/CalendarEventResponse[0]';
/** The concurrency check's failure when answers wait for a held connection. */
const HELD_OPEN_FAILURE = new RegExp(
  `^${CONFORMANCE_MODEL.hostile.concurrent} requests sent while another was held open were not all answered within \\d+ ms \\(\\d+ ms without it\\): answers wait for the held connection$`,
);
const ticket = 'GetAttendeeTypesResult/AttendeeTypeResponse[0]/TicketTypes/TicketTypeResponse[0]';

export interface Case {
  readonly defect: Defect;
  readonly hostile?: boolean;
  /** Run with the checker's default wait for hostile answers (see reportOf). */
  readonly defaultWait?: boolean;
  /** group, binding and check of the result that must fail. */
  readonly want: readonly [string, string, string];
  readonly level: 'document' | 'evgen';
  /** A failure of that result, exactly. */
  readonly failure: string | RegExp;
}

export const CASES: readonly Case[] = [
  {
    defect: 'renamed-field',
    want: ['GetCalendarEventsByDateRange', 'soap11', 'response'],
    level: 'document',
    failure: `${cal}/NumAttendees: missing element`,
  },
  {
    defect: 'boolean-case',
    want: ['GetAttendeeStatuses', 'httpGet', 'response'],
    level: 'document',
    failure:
      'ArrayOfAttendeeStatusResponse/AttendeeStatusResponse[0]/IsAttending: expected lowercase boolean true or false, got "True"',
  },
  {
    defect: 'decimal-scale',
    want: ['GetAttendeeTypes', 'soap12', 'response'],
    level: 'document',
    failure: `${ticket}/GrossPrice: expected decimal with exactly 5 decimal places, got "12.5"`,
  },
  // The scale is the document's rule on every binding, not a question of note A's HTTP shape.
  ...(['httpGet', 'httpPost'] as const).map(
    (binding): Case => ({
      defect: 'decimal-scale',
      want: ['GetAttendeeTypes', binding, 'response'],
      level: 'document',
      failure:
        'ArrayOfAttendeeTypeResponse/AttendeeTypeResponse[0]/TicketTypes/TicketTypeResponse[0]/GrossPrice: expected decimal with exactly 5 decimal places, got "12.5"',
    }),
  ),
  {
    defect: 'nil-content',
    want: ['GetAttendeeTypes', 'soap11', 'response'],
    level: 'document',
    failure: `${ticket}/Capacity: a nil element must be empty, got "0"`,
  },
  {
    defect: 'content-type',
    want: ['GetSubClientCompanyList', 'soap12', 'response'],
    level: 'document',
    failure:
      'content type "text/xml; charset=utf-8", expected "application/soap+xml; charset=utf-8"',
  },
  {
    defect: 'wrong-namespace',
    want: ['GetSubClientCompanyList', 'soap11', 'response'],
    level: 'document',
    failure:
      /^Body holds \{http:\/\/tempuri\.org\/\}GetSubClientCompanyListResponse, expected \{https:\/\/127\.0\.0\.1:\d+\/API\/1_0\/SOAP\/\}GetSubClientCompanyListResponse$/,
  },
  {
    defect: 'missing-required',
    want: ['GetSubClientCompanyList', 'httpPost', 'response'],
    level: 'document',
    failure:
      'ArrayOfGetSubClientCompanyListResponse/GetSubClientCompanyListResponse[0]/ClientCompanyId: missing element',
  },
  {
    defect: 'list-item-name',
    want: ['GetSubClientCompanyList', 'soap11', 'response'],
    level: 'document',
    failure:
      'GetSubClientCompanyListResult/SubClientCompany: list item named SubClientCompany, expected GetSubClientCompanyListResponse',
  },
  {
    defect: 'datetime-zone',
    want: ['GetCalendarEventsByDateRange', 'httpGet', 'response'],
    level: 'document',
    failure:
      'CalendarEventsResponse/Events/CalendarEventResponse[0]/StartDate: expected dateTime yyyy-MM-ddTHH:mm:ss, got "2026-05-01T09:00:00Z"',
  },
  {
    defect: 'http-wrong-root',
    want: ['GetCalendarEventsByDateRange', 'httpPost', 'response'],
    level: 'document',
    failure:
      /^root element \{https:\/\/127\.0\.0\.1:\d+\/API\/1_0\/SOAP\/\}CalendarEvents, expected \{https:\/\/127\.0\.0\.1:\d+\/API\/1_0\/SOAP\/\}CalendarEventsResponse$/,
  },
  {
    defect: 'note-a-root',
    want: ['GetAttendeeTypes', 'httpGet', 'response: http-note-a'],
    level: 'evgen',
    failure: /^root element \{[^}]+\}AttendeeTypes, expected \{[^}]+\}ArrayOfAttendeeTypeResponse$/,
  },
  {
    defect: 'http-plain-nil',
    want: ['GetAttendeeTypes', 'httpPost', 'response: nil-attribute'],
    level: 'evgen',
    failure:
      'ArrayOfAttendeeTypeResponse/AttendeeTypeResponse[0]/TicketTypes/TicketTypeResponse[0]/Capacity: nil written nil="true", expected xsi:nil="true"',
  },
  {
    defect: 'bad-signature-accepted',
    want: ['Authentication', 'soap11', 'refuses a wrong signature'],
    level: 'document',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'unknown-key-accepted',
    want: ['Authentication', 'soap12', 'refuses an unknown API key'],
    level: 'document',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'no-credentials-accepted',
    want: ['Authentication', 'soap11', 'refuses a request without credentials'],
    level: 'document',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'operation-header-ignored',
    want: ['Authentication', 'soap11', 'refuses an Operation naming another operation (signed)'],
    level: 'document',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'no-timestamp-window',
    want: ['Authentication', 'soap12', 'refuses a stale timestamp (signed)'],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'lenient-timestamp',
    want: ['Authentication', 'httpGet', 'refuses a malformed timestamp (signed)'],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'no-replay-refusal',
    want: ['Authentication', 'httpPost', 'refuses a replayed request'],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'replay-other-binding',
    want: ['Authentication', 'soap11', 'refuses a request replayed on soap12'],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'unknown-operation-accepted',
    want: ['Errors', 'soap11', 'refuses an operation the interface does not have'],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'no-error-code',
    want: ['Errors', 'soap12', 'faults carry their code and status'],
    level: 'evgen',
    failure: 'refuses a wrong signature: ErrorCode missing, expected AuthenticationFailed',
  },
  {
    defect: 'wsdl-missing-operation',
    want: ['WSDL', 'wsdl', '?wsdl describes every operation'],
    level: 'evgen',
    failure: 'the WSDL has no operation CancelAttendee',
  },
  {
    defect: 'stack-trace',
    hostile: true,
    want: ['Hostile', 'soap11', 'fault texts hold no stack trace or file path'],
    level: 'evgen',
    failure: /^a JavaScript stack frame in a fault: ".*at XmlReader\.parse \(xml\.js:42:7\)/,
  },
  {
    defect: 'soapaction-ignored',
    hostile: true,
    want: ['Hostile', 'soap11', 'refuses a SOAPAction naming another operation'],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'no-body-limit',
    hostile: true,
    want: ['Hostile', 'soap12', `refuses a body of ${CONFORMANCE_MODEL.hostile.bodyBytes} bytes`],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'no-depth-limit',
    hostile: true,
    want: ['Hostile', 'soap11', `refuses ${CONFORMANCE_MODEL.hostile.depth} nested elements`],
    level: 'evgen',
    failure:
      'not refused as the client\'s error: HTTP 500, fault soap:Server [Internal] "Internal error"',
  },
  {
    defect: 'xxe-echoed',
    hostile: true,
    want: ['Hostile', 'soap12', 'refuses a DTD and its entities'],
    level: 'document',
    failure: 'an entity declared in the DTD was expanded and sent back',
  },
  {
    defect: 'malformed-server-fault',
    hostile: true,
    want: ['Hostile', 'soap11', 'refuses malformed XML with a fault'],
    level: 'document',
    failure:
      'not refused as the client\'s error: HTTP 500, fault soap:Server [Internal] "Internal error"',
  },
  {
    defect: 'one-at-a-time',
    hostile: true,
    want: ['Hostile', 'httpGet', 'answers requests while another is held open'],
    level: 'evgen',
    failure: HELD_OPEN_FAILURE,
  },
  {
    // Serves one connection at a time and drops a slow client after 5 s: every caller waited up
    // to 5 s, and the check that waited 10 s passed it.
    defect: 'one-connection-at-a-time',
    hostile: true,
    defaultWait: true,
    want: ['Hostile', 'soap12', 'answers requests while another is held open'],
    level: 'evgen',
    failure: HELD_OPEN_FAILURE,
  },
  {
    // Accepts every connection but holds every answer while a body is still arriving (5 s at most).
    defect: 'stalls-while-held',
    hostile: true,
    defaultWait: true,
    want: ['Hostile', 'httpPost', 'answers requests while another is held open'],
    level: 'evgen',
    failure: HELD_OPEN_FAILURE,
  },
  {
    // A transport failure (the connection closed without an answer) fails its own check; the run
    // goes on (before, "fetch failed" ended it with no report).
    defect: 'no-answer-to-malformed',
    hostile: true,
    want: ['Hostile', 'soap11', 'refuses malformed XML with a fault'],
    level: 'document',
    failure: /^no answer: /,
  },
  {
    defect: 'future-timestamp-accepted',
    want: ['Authentication', 'soap11', 'refuses a future timestamp (signed)'],
    level: 'evgen',
    failure: 'accepted: HTTP 200',
  },
  {
    defect: 'attendee-type-names',
    want: ['GetAttendeeTypes', 'soap12', 'response: reference-element-types'],
    level: 'evgen',
    failure: `${ticket}/AttendeeTypes/string: list item named string, expected int`,
  },
  {
    defect: 'session-price-scale',
    want: ['GetBookableSessions', 'httpGet', 'response: decimal-scales'],
    level: 'evgen',
    failure:
      'ArrayOfBookableSessionResponse/BookableSessionResponse[0]/GrossPrice: expected decimal with exactly 5 decimal places, got "25.5"',
  },
  {
    defect: 'accommodation-content',
    want: ['GetAccommodation', 'soap11', 'response: accommodation-content'],
    level: 'evgen',
    failure: 'GetAccommodationResult/HotelName: element the spec does not know',
  },
  {
    defect: 'custom-field-item-name',
    want: ['GetBookings', 'soap12', 'response: attendee-list-items'],
    level: 'evgen',
    failure:
      'GetBookingsResult/BookingResponse[0]/Attendees/AttendeeResponse[0]/CustomFieldValues/CustomFieldValue: list item named CustomFieldValue, expected CustomFieldValueResponse',
  },
  {
    defect: 'contact-login-data',
    want: ['GetContact', 'httpPost', 'response: contact-response-fields'],
    level: 'evgen',
    failure: 'ContactResponse/Password: element the spec does not know',
  },
  {
    defect: 'contact-password-sent',
    want: ['GetContact2', 'soap11', 'response: contact-password'],
    level: 'evgen',
    failure: 'GetContact2Result/Password: always sent as nil, got "hunter2"',
  },
  {
    defect: 'website-wrong-model',
    want: ['EventProfileSearch', 'httpGet', 'response: website-model'],
    level: 'evgen',
    failure:
      'EventProfileSearchResponseModel/Events/EventModel[0]/Websites/WebsiteModel[0]/WebsiteId: missing element',
  },
];

/** A form of ASMX's the checker must pass: the row, and the warning it leaves (if any). */
export interface FormCase {
  readonly form: (typeof ASMX_FORMS)[number];
  readonly writes?: boolean;
  readonly want: readonly [string, string, string];
  readonly warning?: string;
}

export const FORM_CASES: readonly FormCase[] = [
  ...(['httpGet', 'httpPost'] as const).flatMap((binding): FormCase[] =>
    ['CancelAttendee', 'CancelBooking'].map((op) => ({
      form: 'asmx-void-answer',
      writes: true,
      want: [op, binding, 'response'],
    })),
  ),
  ...(['soap11', 'httpGet'] as const).map(
    (binding): FormCase => ({
      form: 'entity-references',
      want: ['EventProfileSearch', binding, 'response: reference-element-types'],
    }),
  ),
  {
    form: 'omitted-nulls',
    want: ['GetBookingDetails', 'soap12', 'response'],
    warning: 'GetBookingDetailsResult/InvoiceUrl: absent (a value the server does not have)',
  },
  {
    form: 'omitted-nulls',
    want: ['GetAttendeeStatuses', 'httpPost', 'response'],
    warning:
      'ArrayOfAttendeeStatusResponse/AttendeeStatusResponse[0]/StatusType: absent (a value the server does not have)',
  },
  {
    form: 'omitted-nulls',
    want: ['GetAccommodation', 'soap11', 'response'],
    warning: 'GetAccommodationResponse/GetAccommodationResult: absent (a null result)',
  },
  {
    form: 'omitted-nulls',
    want: ['GetAccommodation', 'httpGet', 'response'],
    warning: 'AccommodationResponse: nil (a null result)',
  },
];
