// The rule table of `evgen diff`: one spec edit per case, the rules it must raise and each rule's
// severity per audience. The unit tests check the classification; the integration tests run
// --verify on the same cases, so a wire-lax verdict the generated code contradicts fails too.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Severity } from '../../src/diff/model.js';
import type { RuleId } from '../../src/diff/rules.js';
import { SPEC_DIR } from './ir.js';
import { applyEdit } from './spec-copy.js';

/** A text edit of one spec file; `from` must occur exactly once. */
export interface Edit {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

export interface DiffCase {
  readonly name: string;
  /** Edits of both versions (what the project's spec lacks for the case, e.g. a scalar result). */
  readonly common?: readonly Edit[];
  readonly edits: readonly Edit[];
  /** The edited spec is the base and the project's spec the head (an addition seen as the undo of a removal). */
  readonly reverse?: boolean;
  /**
   * Set where the generated code does not follow the edited spec key yet, so --verify must report
   * these verdicts (`RULE audience`) as contradicted; the test fails once the generator follows
   * the key, and the mark goes.
   */
  readonly generatorIgnores?: { readonly reason: string; readonly contradicted: readonly string[] };
  /** Every rule the edit raises, with [wire-lax, wire-strict, typescript]. */
  readonly want: Readonly<Partial<Record<RuleId, readonly [Severity, Severity, Severity]>>>;
}

const B = 'breaking';
const D = 'dangerous';
const S = 'safe';
const e = (file: string, from: string, to: string): Edit => ({ file, from, to });

const OPS = 'operations.yaml';
const CONF = 'conformance.yaml';
const BOOKING = 'types/booking.yaml';
const DETAILS_OP = `  - name: GetBookingDetails
    purpose: Summary of one booking.
    parameters:
      - { name: bookingId, type: int }
    result: { kind: type, type: BookingDetails, text: BookingDetails fields }
    http: { shown: false, gap: http-note-a, root: BookingDetails }
`;
const OMITTED_WHEN_NULL = `  omittedWhenNull:
    values: [string, list, complex]
    gap: omitted-values
`;
/** GetBookings' HTTP root (GetBookingsBatch's is the same, followed by other paging). */
const BOOKINGS_ROOT = '    http: { shown: true, root: ArrayOfBookingResponse }';
const SECURE_KEY = '      - { name: SecureKey, type: string }';
/** A value type: a reader requires it (a string a server may leave out when null, gap omitted-values). */
const ATTENDEE_COUNT = '      - { name: AttendeeCount, type: int }';
const BINDING_HTTP_POST = `  - id: httpPost
    title: HTTP POST
    kind: http
    method: POST
    path: "{endpoint}/{Operation}"
    requestContentType: application/x-www-form-urlencoded
    wsdlName: HttpPost
    request: "Body: <param>=<value>&... (empty for operations without parameters)."
    responseContentType: text/xml; charset=utf-8
    response: Same as HTTP GET.
`;
const RATE_LIMITED = `    - code: RateLimited
      doc: Too many requests.
      soap11: soap:Client
      soap12: soap12:Sender
      http: [429]
`;

/** A read operation with a scalar result, before GetBookingDetails, for cases that change it. */
const scalarResultOp = (result: string): Edit =>
  e(
    OPS,
    DETAILS_OP,
    `  - name: GetBookingCode\n    purpose: The code of one booking.\n    parameters:\n      - { name: bookingId, type: int }\n    result: ${result}\n    http: { shown: false, gap: http-note-a, root: BookingCode }\n\n${DETAILS_OP}`,
  );
const SCALAR_RESULT = '{ kind: type, type: string, text: the code }';
const DECIMAL_RESULT = (scale: number) =>
  `{ kind: type, type: decimal, scale: ${scale}, text: the total }`;

export const DIFF_CASES: readonly DiffCase[] = [
  {
    name: 'operation added',
    edits: [
      e(
        OPS,
        DETAILS_OP,
        `${DETAILS_OP}\n${DETAILS_OP.replace('GetBookingDetails', 'GetBookingSummary')}`,
      ),
    ],
    want: { OPERATION_ADDED: [S, S, D] },
  },
  {
    name: 'operation removed',
    edits: [e(OPS, `${DETAILS_OP}\n`, '')],
    want: { OPERATION_NO_REMOVE: [B, B, B] },
  },
  {
    name: 'operation renamed',
    edits: [e(OPS, 'name: GetBookingDetails', 'name: GetBookingSummary')],
    want: { OPERATION_NO_REMOVE: [B, B, B], OPERATION_ADDED: [S, S, D] },
  },
  {
    name: 'operation now changes data',
    edits: [
      e(
        OPS,
        '    http: { shown: false, gap: http-note-a, root: BookingDetails }\n',
        '    http: { shown: false, gap: http-note-a, root: BookingDetails }\n    mutating: true\n',
      ),
      e(
        CONF,
        '    - { operation: CancelAttendee }',
        '    - { operation: CancelAttendee }\n    - { operation: GetBookingDetails }',
      ),
    ],
    want: { OPERATION_RETRY_CHANGED: [S, S, D], CONFORMANCE_CHANGED: [S, S, S] },
  },
  // paging: client.iterate.<method>, a client API the wire never sees.
  {
    name: 'paging added',
    reverse: true,
    edits: [e(OPS, `${BOOKINGS_ROOT}\n    paging: { skip: skip }\n`, `${BOOKINGS_ROOT}\n`)],
    want: { PAGING_ADDED: [S, S, S] },
  },
  {
    name: 'paging removed',
    edits: [e(OPS, `${BOOKINGS_ROOT}\n    paging: { skip: skip }\n`, `${BOOKINGS_ROOT}\n`)],
    want: { PAGING_NO_REMOVE: [S, S, B] },
  },
  {
    name: 'paging skip parameter changed',
    edits: [
      e(
        OPS,
        `${BOOKINGS_ROOT}\n    paging: { skip: skip }\n`,
        `${BOOKINGS_ROOT}\n    paging: { skip: eventId }\n`,
      ),
    ],
    want: { PAGING_NO_CHANGE_SKIP: [S, S, B] },
  },
  {
    name: 'paging size parameter removed',
    edits: [e(OPS, 'paging: { skip: skip, size: size }', 'paging: { skip: skip }')],
    want: { PAGING_SIZE_CHANGED: [S, S, D] },
  },
  {
    name: 'parameter added',
    edits: [
      e(
        OPS,
        DETAILS_OP,
        DETAILS_OP.replace('type: int }', 'type: int }\n      - { name: skip, type: int }'),
      ),
    ],
    want: { PARAMETER_ADDED: [B, B, B] },
  },
  {
    name: 'parameter removed',
    edits: [
      e(
        OPS,
        '      - { name: skip, type: int, doc: The number of records to pass over. }\n    result: { kind: list, of: BookingResponse,',
        '    result: { kind: list, of: BookingResponse,',
      ),
      // paging names skip, so it goes too
      e(
        OPS,
        '    paging: { skip: skip }\n\n  - name: GetBookingsBatch',
        '\n  - name: GetBookingsBatch',
      ),
    ],
    want: { PARAMETER_NO_REMOVE: [B, B, B], PAGING_NO_REMOVE: [S, S, B] },
  },
  {
    name: 'parameter renamed',
    edits: [e(OPS, DETAILS_OP, DETAILS_OP.replace('name: bookingId', 'name: contactId'))],
    want: { PARAMETER_NO_REMOVE: [B, B, B], PARAMETER_ADDED: [B, B, B] },
  },
  {
    name: 'parameter renamed in TypeScript only',
    edits: [
      e(
        OPS,
        DETAILS_OP,
        DETAILS_OP.replace('{ name: bookingId,', '{ name: id, xmlName: bookingId,'),
      ),
    ],
    want: { PARAMETER_TS_RENAMED: [S, S, B] },
  },
  {
    name: 'parameter renamed on the wire only',
    edits: [
      e(
        OPS,
        DETAILS_OP,
        DETAILS_OP.replace('{ name: bookingId,', '{ name: bookingId, xmlName: BookingId,'),
      ),
      // conformance.yaml names parameters by their wire names
      e(
        CONF,
        '{ name: bookingId, parameters: [bookingId]',
        '{ name: bookingId, parameters: [bookingId, BookingId]',
      ),
    ],
    want: { PARAMETER_XML_RENAMED: [B, B, S], CONFORMANCE_CHANGED: [S, S, S] },
  },
  {
    name: 'parameters reordered',
    edits: [
      e(
        OPS,
        '      - { name: eventId, type: int }\n      - { name: skip, type: int, doc: The number of records to pass over. }\n      - { name: size,',
        '      - { name: skip, type: int, doc: The number of records to pass over. }\n      - { name: eventId, type: int }\n      - { name: size,',
      ),
    ],
    want: { PARAMETER_NO_REORDER: [S, B, S] },
  },
  {
    name: 'parameter retyped string → int',
    edits: [
      e(OPS, '{ name: bookingReference, type: string }', '{ name: bookingReference, type: int }'),
    ],
    want: { PARAMETER_NO_CHANGE_TYPE: [B, B, B] },
  },
  {
    name: 'parameter retyped int → string',
    edits: [
      e(OPS, DETAILS_OP, DETAILS_OP.replace('bookingId, type: int', 'bookingId, type: string')),
    ],
    want: { PARAMETER_TYPE_WIDENED: [S, B, B] },
  },
  {
    name: 'result added',
    edits: [
      e(
        OPS,
        '    result: { kind: none, text: none (empty response) }\n    http: { shown: false, gap: http-note-a }',
        '    result: { kind: type, type: BookingDetails, text: the booking }\n    http: { shown: false, gap: http-note-a, root: BookingDetails }',
      ),
    ],
    want: { RESULT_ADDED: [S, B, B] },
  },
  {
    name: 'result one value → list',
    edits: [
      e(
        OPS,
        DETAILS_OP,
        DETAILS_OP.replace(
          '{ kind: type, type: BookingDetails,',
          '{ kind: list, of: BookingDetails, item: BookingDetails,',
        ),
      ),
    ],
    want: { RESULT_NO_CHANGE_KIND: [B, B, B] },
  },
  {
    name: 'result retyped to another shape',
    edits: [
      e(
        OPS,
        DETAILS_OP,
        DETAILS_OP.replace('type: BookingDetails,', 'type: SimpleBookingResponse,'),
      ),
    ],
    want: { RESULT_NO_CHANGE_TYPE: [B, B, B] },
  },
  {
    name: 'result type renamed',
    edits: [
      e(OPS, 'type: BookingDetails,', 'type: BookingSummary,'),
      e(BOOKING, '  - name: BookingDetails', '  - name: BookingSummary'),
    ],
    want: { RESULT_TYPE_RENAMED: [S, S, S], TYPE_NO_REMOVE: [S, S, B], TYPE_ADDED: [S, S, S] },
  },
  {
    name: 'list result item renamed',
    edits: [
      e(
        OPS,
        'of: AttendeeTypeResponse, item: AttendeeTypeResponse,',
        'of: AttendeeTypeResponse, item: AttendeeType,',
      ),
      e(
        CONF,
        '{ operation: GetAttendeeTypes, items: AttendeeTypeResponse,',
        '{ operation: GetAttendeeTypes, items: AttendeeType,',
      ),
    ],
    want: { RESULT_ITEM_NO_RENAME: [B, B, S], CONFORMANCE_CHANGED: [S, S, S] },
  },
  {
    name: 'scalar result retyped string → int',
    common: [scalarResultOp(SCALAR_RESULT)],
    edits: [e(OPS, SCALAR_RESULT, '{ kind: type, type: int, text: the code }')],
    want: { RESULT_TYPE_NARROWED: [S, B, B] },
  },
  {
    name: 'scalar result retyped int → boolean',
    common: [scalarResultOp('{ kind: type, type: int, text: the code }')],
    edits: [e(OPS, 'type: int, text: the code }', 'type: boolean, text: the code }')],
    want: { RESULT_NO_CHANGE_TYPE: [B, B, B] },
  },
  {
    name: 'decimal result scale increased',
    common: [scalarResultOp(DECIMAL_RESULT(2))],
    edits: [e(OPS, DECIMAL_RESULT(2), DECIMAL_RESULT(5))],
    want: { RESULT_SCALE_INCREASED: [B, B, S] },
  },
  {
    name: 'decimal result scale decreased',
    common: [scalarResultOp(DECIMAL_RESULT(5))],
    edits: [e(OPS, DECIMAL_RESULT(5), DECIMAL_RESULT(2))],
    want: { RESULT_SCALE_DECREASED: [S, S, D] },
  },
  {
    name: 'operation with a scalar result added',
    edits: [scalarResultOp('{ kind: type, type: int, text: the count }')],
    want: { OPERATION_ADDED: [S, S, D] },
  },
  {
    name: 'HTTP root changed',
    edits: [e(OPS, 'root: BookingDetails }', 'root: BookingDetailsResult }')],
    want: { HTTP_ROOT_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'required field added',
    edits: [e(BOOKING, SECURE_KEY, `${SECURE_KEY}\n      - { name: Channel, type: string }`)],
    want: { FIELD_ADDED_REQUIRED: [S, B, B] },
  },
  {
    name: 'optional field added',
    edits: [
      e(
        BOOKING,
        SECURE_KEY,
        `${SECURE_KEY}\n      - { name: Channel, type: string, optional: true }`,
      ),
    ],
    want: { FIELD_ADDED_OPTIONAL: [S, B, S] },
  },
  {
    name: 'required field removed',
    edits: [e(BOOKING, `${SECURE_KEY}\n`, '')],
    want: { FIELD_NO_REMOVE: [B, B, B] },
  },
  {
    name: 'required field renamed (CreatedDate → DateCreated)',
    edits: [
      e(BOOKING, '{ name: CreatedDate, type: dateTime }', '{ name: DateCreated, type: dateTime }'),
    ],
    want: { FIELD_NO_REMOVE: [B, B, B], FIELD_ADDED_REQUIRED: [S, B, B] },
  },
  {
    name: 'field renamed in TypeScript only (xmlName keeps the element)',
    edits: [
      e(
        BOOKING,
        '{ name: InvoiceUrl, type: string }',
        '{ name: InvoiceLink, xmlName: InvoiceUrl, type: string }',
      ),
    ],
    want: { FIELD_TS_RENAMED: [S, S, B] },
  },
  {
    name: 'field renamed on the wire only (the TypeScript name stays)',
    edits: [
      e(
        BOOKING,
        '{ name: InvoiceUrl, type: string }',
        '{ name: InvoiceUrl, xmlName: InvoiceLink, type: string }',
      ),
    ],
    want: { FIELD_XML_RENAMED: [B, B, S] },
  },
  {
    name: 'optional field renamed (value silently lost)',
    edits: [
      e(
        BOOKING,
        '{ name: PAName, type: string, optional: true,',
        '{ name: AssistantName, type: string, optional: true,',
      ),
    ],
    want: { FIELD_NO_REMOVE: [B, B, B], FIELD_ADDED_OPTIONAL: [S, B, S] },
  },
  {
    name: 'field retyped int → boolean',
    edits: [
      e(BOOKING, '{ name: AttendeeCount, type: int }', '{ name: AttendeeCount, type: boolean }'),
    ],
    want: { FIELD_NO_CHANGE_TYPE: [B, B, B] },
  },
  {
    name: 'field retyped string → int',
    edits: [e(BOOKING, '{ name: InvoiceUrl, type: string }', '{ name: InvoiceUrl, type: int }')],
    want: { FIELD_TYPE_NARROWED: [S, B, B] },
  },
  {
    name: 'field retyped to a list',
    edits: [
      e(
        BOOKING,
        '{ name: InvoiceUrl, type: string }',
        '{ name: InvoiceUrl, type: list, of: string, item: string }',
      ),
    ],
    want: { FIELD_NO_CHANGE_TYPE: [B, B, B] },
  },
  {
    name: 'field retyped to a type of the same shape',
    edits: [
      e(
        'types/event.yaml',
        '{ name: ClientCompanyReference, type: EntityReference,',
        '{ name: ClientCompanyReference, type: CompanyReference,',
      ),
      e(
        'types/event.yaml',
        '    fields: []\n\n  - name: Event\n',
        '    fields: []\n\n  - name: CompanyReference\n    doc: A reference to a company.\n    section: Event record\n    fields: []\n\n  - name: Event\n',
      ),
    ],
    want: { FIELD_TYPE_RENAMED: [S, S, S], TYPE_ADDED: [S, S, S] },
  },
  {
    name: 'optional field made required',
    edits: [
      e(BOOKING, '{ name: PAName, type: string, optional: true,', '{ name: PAName, type: string,'),
    ],
    want: { FIELD_OPTIONAL_TO_REQUIRED: [S, S, B] },
  },
  {
    name: 'required field made optional',
    edits: [
      e(BOOKING, ATTENDEE_COUNT, '      - { name: AttendeeCount, type: int, optional: true }'),
    ],
    want: { FIELD_REQUIRED_TO_OPTIONAL: [D, D, B] },
  },
  {
    name: 'field made nullable',
    edits: [
      e(BOOKING, ATTENDEE_COUNT, '      - { name: AttendeeCount, type: int, nullable: true }'),
    ],
    want: { FIELD_NULLABLE_ADDED: [D, D, B] },
  },
  {
    name: 'field no longer nullable',
    edits: [
      e(
        'types/contact.yaml',
        '{ name: Password, type: string, nullable: true, alwaysNil: true,',
        '{ name: Password, type: string,',
      ),
    ],
    // alwaysNil goes with nullable (a spec error otherwise), and its doc line with it.
    want: { FIELD_NULLABLE_REMOVED: [S, S, B], DOC_CHANGED: [S, S, S] },
  },
  {
    name: 'field moved in a sequence',
    edits: [
      e(
        BOOKING,
        `      - { name: InvoiceUrl, type: string }\n${SECURE_KEY}`,
        `${SECURE_KEY}\n      - { name: InvoiceUrl, type: string }`,
      ),
    ],
    want: { FIELD_NO_MOVE: [S, B, S] },
  },
  {
    name: 'list field item renamed',
    edits: [
      e(
        BOOKING,
        '{ name: Attendees, type: list, of: AttendeeResponse, item: AttendeeResponse }',
        '{ name: Attendees, type: list, of: AttendeeResponse, item: Attendee }',
      ),
      e(
        CONF,
        'GetBookingsBatch, items: BookingResponse, yields: { bookingId: BookingId, contactEmail: Attendees/AttendeeResponse/',
        'GetBookingsBatch, items: BookingResponse, yields: { bookingId: BookingId, contactEmail: Attendees/Attendee/',
      ),
      e(
        CONF,
        'GetBookings, items: BookingResponse, yields: { bookingId: BookingId, contactEmail: Attendees/AttendeeResponse/',
        'GetBookings, items: BookingResponse, yields: { bookingId: BookingId, contactEmail: Attendees/Attendee/',
      ),
      e(
        CONF,
        'Attendees/AttendeeResponse/AttendeeReference',
        'Attendees/Attendee/AttendeeReference',
      ),
    ],
    want: { FIELD_LIST_ITEM_NO_RENAME: [B, B, S], CONFORMANCE_CHANGED: [S, S, S] },
  },
  {
    name: 'decimal scale increased',
    edits: [
      e(
        BOOKING,
        '{ name: GrossCost, type: decimal, scale: 2,',
        '{ name: GrossCost, type: decimal, scale: 5,',
      ),
    ],
    want: { FIELD_SCALE_INCREASED: [B, B, S] },
  },
  {
    name: 'decimal scale decreased',
    edits: [
      e(
        'types/ticketing.yaml',
        '{ name: GrossPrice, type: decimal, scale: 5, doc: 5 decimal places. }',
        '{ name: GrossPrice, type: decimal, scale: 2, doc: 2 decimal places. }',
      ),
    ],
    want: { FIELD_SCALE_DECREASED: [S, S, D], DOC_CHANGED: [S, S, S] },
  },
  {
    name: 'type renamed in TypeScript only (xmlName keeps the WSDL name)',
    edits: [
      e(OPS, 'type: BookingDetails,', 'type: BookingSummary,'),
      e(
        BOOKING,
        '  - name: BookingDetails\n',
        '  - name: BookingSummary\n    xmlName: BookingDetails\n',
      ),
    ],
    want: { TYPE_TS_RENAMED: [S, S, B] },
  },
  {
    name: 'type renamed in the WSDL only',
    edits: [
      e(
        BOOKING,
        '  - name: BookingDetails\n',
        '  - name: BookingDetails\n    xmlName: BookingSummary\n',
      ),
    ],
    want: { TYPE_XML_RENAMED: [S, D, S] },
  },
  {
    name: 'type added',
    edits: [
      e(
        'types/event.yaml',
        '    fields: []\n\n  - name: Event\n',
        '    fields: []\n\n  - name: CompanyReference\n    doc: A reference to a company.\n    section: Event record\n    fields: []\n\n  - name: Event\n',
      ),
    ],
    want: { TYPE_ADDED: [S, S, S] },
  },
  {
    name: 'binding removed',
    generatorIgnores: {
      reason: 'TypeScript code that names no binding compiles as before',
      contradicted: ['BINDING_NO_REMOVE typescript'],
    },
    edits: [e('service.yaml', BINDING_HTTP_POST, '')],
    want: { BINDING_NO_REMOVE: [B, B, B] },
  },
  {
    name: 'binding added',
    reverse: true,
    edits: [e('service.yaml', BINDING_HTTP_POST, '')],
    want: { BINDING_ADDED: [S, S, S] },
  },
  {
    name: 'binding content type changed',
    generatorIgnores: {
      reason: "the generated client does not check a response's content type",
      contradicted: ['BINDING_NO_CHANGE wire-lax'],
    },
    edits: [
      e(
        'service.yaml',
        '    responseContentType: text/xml; charset=utf-8\n    response: Same as HTTP GET.',
        '    responseContentType: application/xml; charset=utf-8\n    response: Same as HTTP GET.',
      ),
    ],
    want: { BINDING_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'binding path changed',
    edits: [
      e(
        'service.yaml',
        BINDING_HTTP_POST,
        BINDING_HTTP_POST.replace('{endpoint}/{Operation}', '{endpoint}/post/{Operation}'),
      ),
    ],
    want: { BINDING_PATH_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'SOAPAction rule changed',
    edits: [
      e(
        'service.yaml',
        `soapAction: '"{soap_namespace}{Operation}"'`,
        `soapAction: '"{soap_namespace}actions/{Operation}"'`,
      ),
    ],
    want: { SOAP_ACTION_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'endpoint path changed',
    edits: [
      e(
        'service.yaml',
        'endpointPath: /API/1_0/SOAP/ServiceAPI.asmx',
        'endpointPath: /API/1_1/SOAP/ServiceAPI.asmx',
      ),
    ],
    want: { ENDPOINT_PATH_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'namespace rule changed',
    edits: [
      e('service.yaml', 'rule: "{base_url}/API/1_0/SOAP/"', 'rule: "{base_url}/API/1_0/SOAP/v2/"'),
    ],
    want: { NAMESPACE_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'authentication header renamed',
    edits: [e('authentication.yaml', 'apiKey: APIKey', 'apiKey: X-API-Key')],
    want: { AUTH_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'clock skew narrowed',
    edits: [e('authentication.yaml', 'clockSkewSeconds: 300', 'clockSkewSeconds: 60')],
    want: { AUTH_WINDOW_CHANGED: [D, D, S] },
  },
  {
    name: 'fault detail element renamed',
    edits: [e('errors.yaml', 'detailElement: ErrorCode', 'detailElement: FaultCode')],
    want: { FAULT_DETAIL_NO_CHANGE: [B, B, S] },
  },
  {
    name: 'fault code added',
    edits: [e('errors.yaml', '    - code: Internal\n', `${RATE_LIMITED}    - code: Internal\n`)],
    want: { FAULT_CODE_ADDED: [D, D, D] },
  },
  {
    name: 'fault code removed',
    reverse: true,
    edits: [e('errors.yaml', '    - code: Internal\n', `${RATE_LIMITED}    - code: Internal\n`)],
    want: { FAULT_CODE_NO_REMOVE: [S, S, D] },
  },
  {
    name: 'fault code remapped',
    edits: [e('errors.yaml', 'http: [409]', 'http: [422]')],
    want: { FAULT_CODE_NO_REMAP: [D, D, S] },
  },
  {
    name: 'SOAP fault status changed',
    edits: [e('errors.yaml', 'soap11Status: 500', 'soap11Status: 400')],
    want: { FAULT_CODE_NO_REMAP: [D, D, S] },
  },
  {
    name: 'statuses SOAP faults keep changed',
    edits: [
      e('errors.yaml', 'transportStatuses: [413, 415, 503]', 'transportStatuses: [413, 503]'),
    ],
    want: { FAULT_CODE_NO_REMAP: [D, D, S] },
  },
  {
    name: 'Retry-After of a fault code changed',
    edits: [e('errors.yaml', 'retryAfterSeconds: 1', 'retryAfterSeconds: 30')],
    want: { FAULT_RETRY_AFTER_CHANGED: [S, S, S] },
  },
  {
    name: 'conformance limits changed',
    edits: [e('conformance.yaml', 'bodyBytes: 2097152', 'bodyBytes: 4194304')],
    want: { CONFORMANCE_CHANGED: [S, S, S] },
  },
  {
    name: 'values a server may leave out added (from a spec without the convention)',
    edits: [e('service.yaml', OMITTED_WHEN_NULL, '')],
    reverse: true,
    want: { OMITTED_WHEN_NULL_WIDENED: [D, D, B] },
  },
  {
    name: 'strings no longer left out',
    edits: [e('service.yaml', 'values: [string, list, complex]', 'values: [list, complex]')],
    want: { OMITTED_WHEN_NULL_NARROWED: [S, S, D] },
  },
  {
    name: 'type made opaque',
    edits: [e('types/event.yaml', '    opaque: true\n', '')],
    reverse: true,
    want: { CONFORMANCE_CHANGED: [S, S, S] },
  },
  {
    name: 'interface version changed',
    edits: [e('service.yaml', 'version: "1.0"', 'version: "1.1"')],
    want: { INTERFACE_VERSION_CHANGED: [S, S, S] },
  },
  {
    name: 'documentation changed',
    edits: [
      e(
        BOOKING,
        'doc: Summary of one booking (result of GetBookingDetails).',
        'doc: A booking in brief (result of GetBookingDetails).',
      ),
    ],
    want: { DOC_CHANGED: [S, S, S] },
  },
];

/** A copy of the project's spec with the case's edits, in a temporary folder named `spec`. */
export async function editedSpec(
  c: Pick<DiffCase, 'common' | 'edits'>,
): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'evgen-diff-case-'));
  const dir = join(root, 'spec');
  await cp(SPEC_DIR, dir, { recursive: true });
  for (const edit of [...(c.common ?? []), ...c.edits]) {
    const path = join(dir, edit.file);
    await writeFile(path, applyEdit(await readFile(path, 'utf8'), edit));
  }
  return { dir, dispose: () => rm(root, { recursive: true, force: true }) };
}
