// Every authentication refusal, on every binding: the documented fault or status, and the handler
// is never called.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSoapEnvelope } from '@evgen/runtime/internal';
import {
  ENDPOINT,
  authHeaderXml,
  authValues,
  freshTimestamp,
  post,
  soapRequest,
  startHarness,
  credentialHeaders,
  type AuthFields,
  type Harness,
} from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    getBooking: () => ({
      BookingId: 1,
      BookingReference: 'R',
      BookingStatus: 'Confirmed',
      CreatedDate: '2026-01-01T00:00:00',
      GrossCost: '1.00',
      NetCost: '1.00',
      Tax: '0.00',
      IsTest: false,
      Attendees: [],
    }),
  });
});
afterAll(() => h.server.close());

type Binding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';
type Auth = Partial<AuthFields> | 'missing';

async function send(binding: Binding, auth: Auth, operation = 'GetBooking') {
  const v = auth === 'missing' ? undefined : authValues(operation, auth);
  if (binding === 'soap11' || binding === 'soap12') {
    const version = binding === 'soap11' ? '1.1' : '1.2';
    const body = soapRequest(
      version,
      h.ns,
      operation,
      '<bookingId>1</bookingId>',
      v ? authHeaderXml(h.ns, v) : null,
    );
    const headers: Record<string, string> =
      binding === 'soap11'
        ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${h.ns}${operation}"` }
        : { 'content-type': 'application/soap+xml; charset=utf-8' };
    return post(`${h.server.url}${ENDPOINT}`, body, headers);
  }
  const headers = v ? credentialHeaders(v) : {};
  const url = `${h.server.url}${ENDPOINT}/${operation}`;
  const res =
    binding === 'httpGet'
      ? await fetch(`${url}?bookingId=1`, { headers })
      : await fetch(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'bookingId=1',
        });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: await res.text(),
  };
}

/** The fault code and the binding's signal of who is at fault. */
function faultOf(binding: Binding, res: { text: string }): { code: string; who: string } {
  if (binding === 'httpGet' || binding === 'httpPost')
    return { code: res.text.split(':')[0]!, who: '' };
  const fault = parseSoapEnvelope(res.text).payload!;
  const find = (el: typeof fault, name: string): typeof fault | undefined =>
    el.name === name ? el : el.children.map((c) => find(c, name)).find(Boolean);
  return {
    code: find(fault, 'ErrorCode')!.text,
    who: (find(fault, 'faultcode') ?? find(fault, 'Value'))!.text,
  };
}

const REFUSALS: { given: string; auth: () => Auth; httpStatus: number; message: RegExp }[] = [
  {
    given: 'a wrong signature',
    auth: () => ({ Signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' }),
    httpStatus: 403,
    message: /invalid API key or signature/,
  },
  {
    given: 'an unknown API key',
    auth: () => ({ APIKey: 'nobody' }),
    httpStatus: 403,
    message: /invalid API key or signature/,
  },
  {
    given: 'a stale timestamp',
    auth: () => ({ Timestamp: freshTimestamp(-6 * 60_000) }),
    httpStatus: 403,
    message: /older than 300 seconds/,
  },
  {
    given: 'a future timestamp',
    auth: () => ({ Timestamp: freshTimestamp(6 * 60_000) }),
    httpStatus: 403,
    message: /in the future/,
  },
  {
    given: 'a malformed timestamp',
    auth: () => ({ Timestamp: '2026-01-01 10:00:00' }),
    httpStatus: 403,
    message: /yyyy-MM-ddTHH:mm:ss.fffZ/,
  },
  {
    given: 'an Operation naming another operation',
    auth: () => ({ Operation: 'GetBookings' }),
    httpStatus: 403,
    message: /does not name the operation called/,
  },
  { given: 'a missing header', auth: () => 'missing', httpStatus: 401, message: /missing/ },
];

describe.each(['soap11', 'soap12', 'httpGet', 'httpPost'] as Binding[])('%s', (binding) => {
  for (const { given, auth, httpStatus, message } of REFUSALS) {
    it(`refuses ${given}`, async () => {
      h.calls.length = 0;
      const res = await send(binding, auth());
      const want = { soap11: 500, soap12: 400, httpGet: httpStatus, httpPost: httpStatus }[binding];
      expect(res.status).toBe(want);
      expect(res.text).toMatch(message);
      const fault = faultOf(binding, res);
      expect(fault.code).toBe('AuthenticationFailed');
      if (binding === 'soap11') expect(fault.who).toBe('soap:Client');
      if (binding === 'soap12') expect(fault.who).toBe('soap12:Sender');
      expect(h.calls).toEqual([]);
    });
  }

  it('refuses a replayed request and accepts the original', async () => {
    h.calls.length = 0;
    const v = authValues('GetBooking');
    expect((await send(binding, v)).status).toBe(200);
    const again = await send(binding, v);
    expect(again.status).toBe({ soap11: 500, soap12: 400, httpGet: 403, httpPost: 403 }[binding]);
    expect(again.text).toMatch(/replayed request/);
    expect(h.calls).toEqual(['getBooking']);
  });
});

describe('HTTP credentials', () => {
  it('refuses credentials in the query string, so they never reach access logs', async () => {
    h.calls.length = 0;
    const v = authValues('GetBooking');
    const res = await fetch(
      `${h.server.url}${ENDPOINT}/GetBooking?bookingId=1&APIKey=${v.APIKey!}&Signature=${encodeURIComponent(v.Signature!)}`,
      { headers: { Timestamp: v.Timestamp! } },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(
      /^InvalidRequest: credentials must travel as the HTTP headers/,
    );
    expect(h.calls).toEqual([]);
  });

  it('refuses credentials in a form body', async () => {
    const v = authValues('GetBooking');
    const res = await fetch(`${h.server.url}${ENDPOINT}/GetBooking`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...credentialHeaders({ APIKey: v.APIKey, Timestamp: v.Timestamp, Signature: v.Signature }),
      },
      body: `bookingId=1&signature=${encodeURIComponent(v.Signature!)}`,
    });
    expect(res.status).toBe(400);
  });
});
