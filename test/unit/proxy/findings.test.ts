// A checker's message read as path, expected and found, in each form the conformance checker
// and the proxy's request checks write; and one finding as one line.
import { describe, expect, it } from 'vitest';
import { findingLine, messageParts, type Finding } from '../../../src/proxy/finding.js';

const cases: { given: string; want: ReturnType<typeof messageParts> }[] = [
  {
    given:
      'GetAttendeeStatusesResult/AttendeeStatusResponse[0]/IsAttending: expected lowercase boolean true or false, got "True"',
    want: {
      path: 'GetAttendeeStatusesResult/AttendeeStatusResponse[0]/IsAttending',
      expected: 'lowercase boolean true or false',
      found: '"True"',
    },
  },
  {
    given:
      'GetSubClientCompanyListResult/SubClientCompany: list item named SubClientCompany, expected GetSubClientCompanyListResponse',
    want: {
      path: 'GetSubClientCompanyListResult/SubClientCompany',
      expected: 'GetSubClientCompanyListResponse',
      found: 'list item named SubClientCompany',
    },
  },
  {
    given: 'X/Capacity: a nil element must be empty, got "0"',
    want: { path: 'X/Capacity', expected: 'a nil element must be empty', found: '"0"' },
  },
  {
    given: 'X/Title: missing element',
    want: { path: 'X/Title', expected: '', found: 'missing element' },
  },
  {
    given: 'content type "text/xml; charset=utf-8", expected "application/soap+xml; charset=utf-8"',
    want: {
      path: '',
      expected: '"application/soap+xml; charset=utf-8"',
      found: 'content type "text/xml; charset=utf-8"',
    },
  },
  {
    given: 'Body holds {http://tempuri.org/}R, expected {https://h/API/1_0/SOAP/}R',
    want: {
      path: '',
      expected: '{https://h/API/1_0/SOAP/}R',
      found: 'Body holds {http://tempuri.org/}R',
    },
  },
  {
    given: 'the WSDL has no operation CancelAttendee',
    want: { path: '', expected: '', found: 'the WSDL has no operation CancelAttendee' },
  },
];

describe('messageParts', () => {
  it.each(cases)('$given', ({ given, want }) => expect(messageParts(given)).toEqual(want));
});

describe('findingLine', () => {
  it('names direction, binding, operation, check, level and says what', () => {
    const f: Finding = {
      direction: 'response',
      binding: 'soap12',
      operation: 'GetAttendeeTypes',
      check: 'response',
      level: 'document',
      source: 'Endpoints › Bindings; Resources',
      path: 'P',
      expected: 'E',
      found: 'F',
      message: 'P: expected E, got F',
    };
    expect(findingLine(f)).toBe(
      'response soap12 GetAttendeeTypes · response [document] · P: expected E, got F',
    );
  });

  it('says what was expected when the message does not', () => {
    const f: Finding = {
      direction: 'response',
      binding: 'httpGet',
      operation: 'GetBooking',
      check: 'refuses a wrong signature',
      level: 'evgen',
      source: 'gap:http-credentials',
      path: '',
      expected: 'a refusal (AuthenticationFailed)',
      found: 'accepted: HTTP 200',
      message: 'accepted: HTTP 200',
    };
    expect(findingLine(f)).toBe(
      'response httpGet GetBooking · refuses a wrong signature [evgen] · accepted: HTTP 200 (expected a refusal (AuthenticationFailed))',
    );
  });

  it('adds nothing to a message that says more than what was found', () => {
    const f: Finding = {
      direction: 'request',
      binding: 'soap11',
      operation: 'GetBooking',
      check: 'signature',
      level: 'document',
      source: 'Authentication',
      path: 'AuthenticationHeader/Signature',
      expected: 'HMAC-SHA1 of "GetBooking…" with the secret of ak_1',
      found: 'a signature that does not match (not shown)',
      message: 'the Signature does not verify with the secret of API key ak_1: signed …',
    };
    expect(findingLine(f)).toBe(
      'request soap11 GetBooking · signature [document] · the Signature does not verify with the secret of API key ak_1: signed …',
    );
  });
});
