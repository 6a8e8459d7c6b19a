// Every conformance check is shown to fail on the defect it names: the runner against a test double
// of the interface (test/support/double: written from the document, no code shared with the
// reference service) switched to one defect at a time, asserting the specific check and message;
// with no defect, the double passes everything it implements.
import { afterAll, describe, expect, it } from 'vitest';
import type { ConformanceReport, ConformanceResult } from '@evgen/runtime';
import { checkConformance, CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { DEFECTS, type Defect } from '../../support/double/defects.js';
import { BOOKING_ID } from '../../support/double/records.js';
import { DOUBLE_KEY, startDouble, type Double } from '../../support/double/server.js';

const doubles: Double[] = [];
afterAll(async () => Promise.all(doubles.map((d) => d.close())));

async function run(defect: Defect | undefined, hostile = false): Promise<ConformanceReport> {
  const d = await startDouble(defect);
  doubles.push(d);
  return checkConformance({
    url: d.url,
    ...DOUBLE_KEY,
    level: 'evgen',
    hostile,
    hostileWaitMs: 1_000,
    values: { bookingId: String(BOOKING_ID) },
  });
}

const ns = (url: string) => `https://${new URL(url).host}/API/1_0/SOAP/`;
const cal = 'GetCalendarEventsByDateRangeResult/Events/CalendarEventResponse[0]';
const ticket = 'GetAttendeeTypesResult/AttendeeTypeResponse[0]/TicketTypes/TicketTypeResponse[0]';

interface Case {
  readonly defect: Defect;
  readonly hostile?: boolean;
  /** group, binding and check of the result that must fail. */
  readonly want: readonly [string, string, string];
  readonly level: 'document' | 'evgen';
  /** A failure of that result, exactly. */
  readonly failure: string | RegExp;
}

const CASES: readonly Case[] = [
  {
    defect: 'renamed-field',
    want: ['GetCalendarEventsByDateRange', 'soap11', 'response'],
    level: 'document',
    failure: `${cal}/Title: missing element`,
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
      'ArrayOfGetSubClientCompanyListResponse/GetSubClientCompanyListResponse[0]/ClientCompanyName: missing element',
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
    failure: `${CONFORMANCE_MODEL.hostile.concurrent} requests sent while another was held open were not all answered within 1 s`,
  },
];

const find = (r: ConformanceReport, [group, binding, check]: readonly string[]) =>
  r.results.find((x) => x.group === group && x.binding === binding && x.check === check);

describe('each defect fails the check that names it', () => {
  it('has a case for every defect of the double', () => {
    expect(CASES.map((c) => c.defect).sort()).toEqual([...DEFECTS].sort());
  });

  it.each(CASES)(
    '$defect → $want.0 $want.2 [$want.1]',
    async ({ defect, hostile, want, level, failure }) => {
      const report = await run(defect, hostile);
      const r = find(report, want);
      expect(r, `${want.join(' ')} was not reported`).toBeDefined();
      expect(r!.status, JSON.stringify(r)).toBe('fail');
      expect(r!.level).toBe(level);
      if (typeof failure === 'string') expect(r!.failures).toContain(failure);
      else
        expect(
          r!.failures.some((f) => failure.test(f)),
          r!.failures.join('\n'),
        ).toBe(true);
    },
  );
});

describe('the double without defects', () => {
  let report: ConformanceReport;
  const statuses = (group: string) =>
    report.results.filter((r) => r.group === group).map((r) => r.status);

  it('passes everything it implements, hostile checks included', async () => {
    report = await run(undefined, true);
    expect(report.results.filter((r: ConformanceResult) => r.status === 'fail')).toEqual([]);
    for (const op of [
      'GetCalendarEventsByDateRange',
      'GetAttendeeStatuses',
      'GetAttendeeTypes',
      'GetSubClientCompanyList',
      'GetBookingDetails',
    ])
      expect(
        statuses(op).every((s) => s === 'pass'),
        op,
      ).toBe(true);
  }, 60_000);

  it('reports the operations it does not implement as not implemented, with the reason', () => {
    const ni = report.results.find((r) => r.group === 'GetShows' && r.binding === 'soap11')!;
    expect(ni.status).toBe('not-implemented');
    expect(ni.reason).toBe(
      'HTTP 500, fault soap:Client [InvalidRequest] "GetShows is not implemented by this double"',
    );
  });

  it('skips what needs a value it could not find, naming the option that gives it', () => {
    const r = report.results.find(
      (x) => x.group === 'GetContactEventHistory3' && x.binding === 'httpGet',
    )!;
    expect(r.status).toBe('skip');
    expect(r.reason).toBe('no value for contactEmail (give --contact-email)');
  });

  it('falls back across sources and reports what discovery could not use', () => {
    // EventProfileSearch is not implemented: the event comes from GetCalendarEventsByDateRange.
    expect(report.values.eventId).toBe('501');
    expect(report.discovery).toContainEqual({
      operation: 'EventProfileSearch',
      binding: 'soap11',
      reason:
        'not implemented: HTTP 500, fault soap:Client [InvalidRequest] "EventProfileSearch is not implemented by this double"',
    });
  });

  it('uses an id given by the user (GetBookingDetails with bookingId)', () => {
    expect(report.values.bookingId).toBe(String(BOOKING_ID));
    expect(statuses('GetBookingDetails')).toContain('pass');
  });

  it('names the source of every check', () => {
    const doc = report.results.find(
      (r) => r.check === 'refuses a wrong signature' && r.binding === 'soap11',
    )!;
    expect([doc.level, doc.source]).toEqual(['document', 'Authentication']);
    const gap = report.results.find((r) => r.check === 'refuses a stale timestamp (signed)')!;
    expect([gap.level, gap.source]).toEqual(['evgen', 'gap:timestamp-window']);
    void ns;
  });
});
