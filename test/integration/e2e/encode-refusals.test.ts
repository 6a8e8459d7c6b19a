// No wrong value reaches the wire, over real HTTP on every binding: a handler result missing a
// required field is answered with the internal fault and logged with its Type.Field (before, the
// service answered 200 with the text "undefined"); a client call with a parameter of the wrong
// kind throws an XmlEncodeError before any request is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XmlEncodeError, type LogEntry } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { BINDING_IDS, WIRE } from '@evgen/event-management/service';
import type {
  BookingDetails,
  GetBookingDetailsParams,
  GetContactParams,
} from '@evgen/event-management/types';
import { KEY, startHarness, type Harness } from './harness.js';

let h: Harness;
const logs: LogEntry[] = [];
beforeAll(async () => {
  h = await startHarness(
    {
      // What an `as` cast, a JavaScript handler or a stale spec lets through: no SecureKey.
      getBookingDetails: ({ bookingId }) =>
        ({
          BookingId: bookingId,
          BookingReference: 'R-1',
          AttendeeCount: 1,
          InvoiceUrl: 'https://x.example/i',
          LeadAttendeeReference: 'A-1',
        }) as BookingDetails,
    },
    { onLog: (e) => logs.push(e) },
  );
});
afterAll(() => h.server.close());

const client = (binding: (typeof BINDING_IDS)[number], fetch?: typeof globalThis.fetch) =>
  new EventServiceClient({
    baseUrl: h.server.url,
    apiKey: KEY.apiKey,
    secretKey: KEY.secret,
    binding,
    ...(fetch ? { fetch } : {}),
  });
const internal = WIRE.faults.raisedFor.internal;

describe.each([...BINDING_IDS])('over %s', (binding) => {
  it('answers a result missing a required field with the internal fault, logged with the path', async () => {
    logs.length = 0;
    const e = await client(binding)
      .getBookingDetails({ bookingId: 5 })
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: internal });
    expect(JSON.stringify(e)).not.toContain('SecureKey');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ faultCode: internal, operation: 'GetBookingDetails' });
    // The log entry holds the error as data: its name and its message with the path.
    expect(logs[0]!.error).toMatchObject({
      name: XmlEncodeError.name,
      message: 'BookingDetails.SecureKey: required string, got undefined',
    });
  });

  it('throws before sending a parameter of the wrong kind', async () => {
    let sent = 0;
    const spy: typeof fetch = (url, init) => (sent++, fetch(url, init));
    const cases: {
      given: [method: 'getBookingDetails' | 'getContact', params: object];
      want: string;
    }[] = [
      {
        given: ['getBookingDetails', {}],
        want: 'GetBookingDetails.bookingId: required int, got undefined',
      },
      {
        given: ['getBookingDetails', { bookingId: '5' }],
        want: 'GetBookingDetails.bookingId: required int, got "5"',
      },
      { given: ['getContact', {}], want: 'GetContact.email: required string, got undefined' },
      {
        given: ['getContact', { email: null }],
        want: 'GetContact.email: required string, got null',
      },
    ];
    for (const { given, want } of cases) {
      const [method, params] = given;
      const c = client(binding, spy);
      // What a JavaScript caller or a cast can pass: the types are not checked here.
      const call =
        method === 'getContact'
          ? c.getContact(params as GetContactParams)
          : c.getBookingDetails(params as GetBookingDetailsParams);
      const e = await call.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(XmlEncodeError);
      expect((e as Error).message).toBe(want);
    }
    expect(sent).toBe(0);
  });
});
