// Faults as SOAP stacks expect them, statuses for HTTP GET/POST, limits; never a crash and never a
// stack trace in a response.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceFault } from '@evgen/runtime';
import { parseSoapEnvelope } from '@evgen/runtime/internal';
import { EventServiceClient } from '@evgen/event-management/client';
import { WIRE } from '@evgen/event-management/service';
import {
  ENDPOINT,
  KEY,
  authHeaderXml,
  authValues,
  post,
  send,
  soapRequest,
  startHarness,
  type Harness,
  credentialHeaders,
} from './harness.js';

let h: Harness;
const logs: { faultCode?: string; error?: unknown }[] = [];
beforeAll(async () => {
  h = await startHarness(
    {
      getBooking: () => {
        throw new Error(
          'SQLITE_ERROR: no such table: bookings at Database.prepare (/srv/app/db.ts:12:3)',
        );
      },
      getBookingDetails: ({ bookingId }) => {
        throw new ServiceFault('NotFound', `booking ${bookingId} does not exist`);
      },
      getShows: () => {
        const cause = new Error('connect ECONNREFUSED 10.20.30.40:5432');
        throw new ServiceFault('Unavailable', 'database unreachable', undefined, { cause });
      },
    },
    { onLog: (e) => logs.push(e) },
  );
});
afterAll(() => h.server.close());

const url = () => `${h.server.url}${ENDPOINT}`;
const soap11 = (op: string, params: string, extra: Record<string, string> = {}) =>
  post(url(), soapRequest('1.1', h.ns, op, params, authHeaderXml(h.ns, authValues(op))), {
    'content-type': 'text/xml; charset=utf-8',
    soapaction: `"${h.ns}${op}"`,
    ...extra,
  });

function soapFault(body: string) {
  const f = parseSoapEnvelope(body).payload!;
  const text = (name: string): string | undefined => {
    const walk = (el: typeof f): string | undefined =>
      el.name === name ? el.text : el.children.map(walk).find((x) => x !== undefined);
    return walk(f);
  };
  return {
    faultcode: text('faultcode') ?? text('Value'),
    reason: text('faultstring') ?? text('Text'),
    code: text('ErrorCode'),
  };
}

describe('SOAP faults', () => {
  it('answers malformed XML with a Client fault', async () => {
    const res = await post(
      url(),
      '<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><oops></e:Body>',
      { 'content-type': 'text/xml; charset=utf-8', soapaction: '"x"' },
    );
    expect(res.status).toBe(500);
    expect(res.type).toBe('text/xml; charset=utf-8');
    expect(soapFault(res.text)).toMatchObject({ faultcode: 'soap:Client', code: 'InvalidRequest' });
  });

  it('answers an unknown operation element', async () => {
    const res = await soap11('DeleteEverything', '');
    expect(soapFault(res.text)).toMatchObject({ faultcode: 'soap:Client', code: 'InvalidRequest' });
    expect(soapFault(res.text).reason).toContain('unknown operation');
  });

  it('answers a SOAPAction that disagrees with the body', async () => {
    const res = await soap11('GetBooking', '<bookingId>1</bookingId>', {
      soapaction: `"${'https://elsewhere/'}GetBookings"`,
    });
    expect(res.status).toBe(500);
    expect(soapFault(res.text).reason).toMatch(/SOAPAction .* does not match/);
    expect(h.calls).not.toContain('getBooking');
  });

  it('answers a bad parameter with InvalidParameter and its XML path', async () => {
    const res = await soap11('GetBookingDetails', '<bookingId>twelve</bookingId>');
    expect(soapFault(res.text)).toMatchObject({
      code: 'InvalidParameter',
      reason: 'GetBookingDetails/bookingId: expected int, got "twelve"',
    });
  });

  it('passes a handler fault through with its code', async () => {
    const res = await soap11('GetBookingDetails', '<bookingId>9</bookingId>');
    expect(soapFault(res.text)).toMatchObject({
      faultcode: 'soap:Client',
      code: 'NotFound',
      reason: 'booking 9 does not exist',
    });
  });

  it('hides a throwing handler: Server fault, no stack trace, no SQL; the log keeps the error', async () => {
    logs.length = 0;
    const res = await soap11('GetBooking', '<bookingId>1</bookingId>');
    expect(res.status).toBe(500);
    expect(soapFault(res.text)).toMatchObject({
      faultcode: 'soap:Server',
      code: 'Internal',
      reason: 'Internal error',
    });
    expect(res.text).not.toMatch(/SQLITE|db\.ts|at /);
    expect(logs.at(-1)).toMatchObject({ faultCode: 'Internal' });
    expect(String((logs.at(-1)!.error as Error).message)).toContain('SQLITE_ERROR');
  });

  it('answers Unavailable with 503 and Retry-After on every binding; its cause goes to the log only', async () => {
    const retryAfter = String(
      WIRE.faults.codes.find((c) => c.code === 'Unavailable')!.retryAfterSeconds,
    );
    logs.length = 0;
    const answers = [
      await soap11('GetShows', ''),
      await post(
        url(),
        soapRequest('1.2', h.ns, 'GetShows', '', authHeaderXml(h.ns, authValues('GetShows'))),
        {
          'content-type': 'application/soap+xml; charset=utf-8',
        },
      ),
      await send(`${url()}/GetShows`, { headers: credentialHeaders(authValues('GetShows')) }),
    ];
    for (const res of answers) {
      expect([res.status, res.headers?.get('retry-after')]).toEqual([503, retryAfter]);
      expect(res.text).not.toContain('10.20.30.40');
    }
    expect(soapFault(answers[0]!.text)).toMatchObject({
      faultcode: 'soap:Server',
      code: 'Unavailable',
      reason: 'database unreachable',
    });
    expect(soapFault(answers[1]!.text)).toMatchObject({
      faultcode: 'soap12:Receiver',
      code: 'Unavailable',
    });
    expect(answers[2]!.text).toBe('Unavailable: database unreachable\n');
    expect(logs).toHaveLength(3);
    for (const entry of logs)
      expect(entry).toMatchObject({
        faultCode: 'Unavailable',
        error: { message: 'connect ECONNREFUSED 10.20.30.40:5432' },
      });
  });

  it('answers SOAP 1.2 faults with 400 Sender and 500 Receiver', async () => {
    const send = (op: string, params: string) =>
      post(url(), soapRequest('1.2', h.ns, op, params, authHeaderXml(h.ns, authValues(op))), {
        'content-type': 'application/soap+xml; charset=utf-8',
      });
    const sender = await send('GetBookingDetails', '<bookingId>9</bookingId>');
    expect(sender.status).toBe(400);
    expect(sender.type).toBe('application/soap+xml; charset=utf-8');
    expect(soapFault(sender.text)).toMatchObject({ faultcode: 'soap12:Sender', code: 'NotFound' });
    expect(sender.text).toContain('<soap12:Text xml:lang="en">');
    const receiver = await send('GetBooking', '<bookingId>1</bookingId>');
    expect(receiver.status).toBe(500);
    expect(soapFault(receiver.text)).toMatchObject({
      faultcode: 'soap12:Receiver',
      code: 'Internal',
    });
  });

  it('answers a wrong content type with 415', async () => {
    const res = await post(url(), '{}', { 'content-type': 'application/json' });
    expect(res.status).toBe(415);
    expect(soapFault(res.text).code).toBe('InvalidRequest');
  });
});

describe('HTTP GET/POST statuses', () => {
  const headers = (op: string) => {
    const { APIKey, Timestamp, Signature } = authValues(op);
    return credentialHeaders({ APIKey, Timestamp, Signature });
  };
  const cases: { given: string; send: () => Promise<Response>; status: number; body: RegExp }[] = [
    {
      given: 'an unknown operation',
      send: () => fetch(`${url()}/DeleteEverything`, { headers: headers('DeleteEverything') }),
      status: 404,
      body: /^InvalidRequest: unknown operation "DeleteEverything"/,
    },
    {
      given: 'a wrong method',
      send: () => fetch(`${url()}/GetBooking`, { method: 'PUT', headers: headers('GetBooking') }),
      status: 405,
      body: /^InvalidRequest/,
    },
    {
      given: 'a POST that is not a form',
      send: () =>
        fetch(`${url()}/GetBooking`, {
          method: 'POST',
          headers: { ...headers('GetBooking'), 'content-type': 'text/plain' },
          body: 'x',
        }),
      status: 415,
      body: /^InvalidRequest/,
    },
    {
      given: 'a bad parameter',
      send: () =>
        fetch(`${url()}/GetBookingDetails?bookingId=x`, { headers: headers('GetBookingDetails') }),
      status: 400,
      body: /^InvalidParameter: bookingId: expected int, got "x"/,
    },
    {
      given: 'a missing parameter',
      send: () => fetch(`${url()}/GetBookingDetails`, { headers: headers('GetBookingDetails') }),
      status: 400,
      body: /^InvalidParameter: bookingId: expected parameter bookingId/,
    },
    {
      given: 'a not-found fault',
      send: () =>
        fetch(`${url()}/GetBookingDetails?bookingId=9`, { headers: headers('GetBookingDetails') }),
      status: 404,
      body: /^NotFound: booking 9 does not exist/,
    },
    {
      given: 'a throwing handler',
      send: () => fetch(`${url()}/GetBooking?bookingId=1`, { headers: headers('GetBooking') }),
      status: 500,
      body: /^Internal: Internal error\n$/,
    },
    {
      given: 'another path',
      send: () => fetch(`${h.server.url}/elsewhere`),
      status: 404,
      body: /^InvalidRequest/,
    },
  ];
  for (const { given, send, status, body } of cases) {
    it(`answers ${given} with ${status}`, async () => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toMatch(body);
    });
  }
});

describe('limits and the WSDL', () => {
  // Up to 8 times the limit (1 MiB) the rest is read and dropped so the client gets the answer;
  // a body declared past that is answered at once.
  it('answers a body declared past 8 times the limit with 413 without reading it all', async () => {
    const total = 16 * 1024 * 1024;
    const { status, sent } = await new Promise<{ status: number; sent: number }>(
      (resolve, reject) => {
        let sent = 0;
        const req = request(
          `${url()}`,
          {
            method: 'POST',
            headers: { 'content-type': 'text/xml; charset=utf-8', 'content-length': String(total) },
          },
          (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0, sent });
            req.destroy();
          },
        );
        req.on('error', (e) => (sent > 0 ? undefined : reject(e)));
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (sent < total && req.write(chunk)) sent += chunk.length;
          if (sent < total) req.once('drain', () => ((sent += chunk.length), pump()));
        };
        pump();
      },
    );
    expect(status).toBe(413);
    expect(sent).toBeLessThan(total);
  });

  it('answers a chunked body past the limit with 413', async () => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: new Blob(['x'.repeat(2 * 1024 * 1024)]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("serves ?wsdl and ?WSDL with this server's namespace and address", async () => {
    for (const q of ['wsdl', 'WSDL']) {
      const res = await fetch(`${url()}?${q}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
      const text = await res.text();
      expect(text).toContain(`targetNamespace="${h.ns}"`);
      expect(text).toContain(`<soap:address location="${url()}" />`);
    }
  });

  it('turns faults into a typed client error with code, text and status', async () => {
    for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as const) {
      const client = new EventServiceClient({
        baseUrl: h.server.url,
        apiKey: KEY.apiKey,
        secretKey: KEY.secret,
        binding,
      });
      const err = await client.getBookingDetails({ bookingId: 9 }).catch((e: unknown) => e);
      expect(err, binding).toMatchObject({
        name: 'ServiceError',
        code: 'NotFound',
        faultString: 'booking 9 does not exist',
        httpStatus: { soap11: 500, soap12: 400, httpGet: 404, httpPost: 404 }[binding],
        binding,
      });
    }
  });
});
