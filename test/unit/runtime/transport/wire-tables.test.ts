// The engines take every wire fact from the tables they are given: with a WireSpec unlike the
// spec's (other paths, content types, SOAPAction rule, namespace scheme, fault codes, statuses and
// detail element), the generated operations still travel between the client and the server
// engine, and each request and answer shows the table's values. No HTTP: the client's fetch calls
// the framework-neutral server handler directly.
import { describe, expect, it } from 'vitest';
import { ServiceError, ServiceFault, type ServiceRequest } from '@evgen/runtime';
import {
  createServiceHandler,
  createTransport,
  httpOperationAt,
  sentSoapAction,
  soapBindingAt,
  unquoteAction,
} from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { operations } from '@evgen/event-management/operations';
import { renderWsdl } from '@evgen/event-management/wsdl';
import { MADE_UP_WIRE as WIRE } from '../../../support/made-up-wire.js';

const KEY = { apiKey: 'k1', secretKey: 's1' };
const booking = {
  BookingId: 5,
  BookingReference: 'R-5',
  AttendeeCount: 1,
  InvoiceUrl: 'https://x.example/i',
  SecureKey: 'k',
  LeadAttendeeReference: 'A-1',
};
let behaviour: () => unknown = () => booking;
const handler = createServiceHandler({
  operations,
  handlers: { getBookingDetails: () => behaviour() },
  partial: true,
  onDiagnostic: () => {},
  auth: authScheme,
  wire: WIRE,
  clockSkewSeconds: 60,
  lookupKey: (k) => Promise.resolve(k === KEY.apiKey ? { secret: KEY.secretKey } : undefined),
  wsdl: renderWsdl,
});

interface Exchange {
  request: ServiceRequest;
  status: number;
  contentType: string;
  body: string;
}
function client(binding: string, seen: Exchange[]) {
  return createTransport({
    baseUrl: 'https://svc.example',
    ...KEY,
    auth: authScheme,
    wire: WIRE,
    binding,
    fetch: async (url, init) => {
      const u = new URL(url instanceof Request ? url.url : url);
      const headers = Object.fromEntries(
        Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [
          k.toLowerCase(),
          v,
        ]),
      );
      const request: ServiceRequest = {
        method: init?.method ?? 'GET',
        url: u.pathname + u.search,
        headers: { ...headers, host: u.host },
        body: new TextEncoder().encode(typeof init?.body === 'string' ? init.body : ''),
      };
      const res = await handler(request);
      const body = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
      seen.push({ request, status: res.status, contentType: res.headers['content-type']!, body });
      return new Response(body, { status: res.status, headers: res.headers });
    },
  });
}

describe.each(WIRE.bindings.map((b) => [b.id, b] as const))(
  'binding %s of a made-up table',
  (id, b) => {
    it('carries an operation at the table’s path, with its content types and action', async () => {
      behaviour = () => booking;
      const seen: Exchange[] = [];
      await expect(
        client(id, seen).call(operations.GetBookingDetails, { bookingId: 5 }),
      ).resolves.toEqual(booking);
      const [{ request, status, contentType, body }] = seen as [Exchange];
      expect([request.method, status, contentType]).toEqual([b.method, 200, b.responseContentType]);
      expect(request.url.split('?')[0]).toBe(
        b.path.replace('{endpoint}', WIRE.endpointPath).replace('{Operation}', 'GetBookingDetails'),
      );
      if (b.requestContentType !== null)
        expect(request.headers['content-type']).toMatch(b.requestContentType);
      if (b.id === 'a') expect(request.headers.soapaction).toBe('"urn:act:GetBookingDetails"');
      expect(body).toContain(
        b.kind === 'soap' ? 'xmlns="http://svc.example/ns/"' : 'http://svc.example/ns/',
      );
    });

    it('answers a fault with the table’s code, status and detail element', async () => {
      behaviour = () => {
        throw new ServiceFault('Gone', 'no booking 5');
      };
      const seen: Exchange[] = [];
      const e = await client(id, seen)
        .call(operations.GetBookingDetails, { bookingId: 5 })
        .catch((x: unknown) => x);
      const def = WIRE.faults.codes.find((c) => c.code === 'Gone')!;
      const status =
        b.soapVersion === '1.1'
          ? def.soap11Status
          : b.soapVersion === '1.2'
            ? def.soap12Status
            : def.httpStatuses[0];
      expect(e).toBeInstanceOf(ServiceError);
      expect(e).toMatchObject({
        code: 'Gone',
        faultString: 'no booking 5',
        httpStatus: status,
        binding: id,
      });
      const [{ contentType, body }] = seen as [Exchange];
      if (b.kind === 'soap') {
        expect(contentType).toBe(b.responseContentType);
        expect(body).toContain('<Why xmlns="http://svc.example/ns/">Gone</Why>');
      } else expect([contentType, body]).toEqual(['text/x-fault', 'Gone: no booking 5\n']);
    });

    it('answers an error of its own with the internal code and its fixed message', async () => {
      behaviour = () => {
        throw new Error('SQLITE_ERROR: secret');
      };
      const e = await client(id, [])
        .call(operations.GetBookingDetails, { bookingId: 5 })
        .catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'Oops', faultString: 'Sorry', httpStatus: 503 });
    });

    it('answers an operation without a handler with the code raised for notImplemented', async () => {
      const e = await client(id, [])
        .call(operations.GetBooking, { bookingId: 5 })
        .catch((x: unknown) => x);
      const status = b.soapVersion === '1.1' ? 505 : b.soapVersion === '1.2' ? 506 : 507;
      expect(e).toMatchObject({
        code: 'Later',
        faultString: 'GetBooking is not implemented by this server',
        httpStatus: status,
      });
    });
  },
);

it('refuses the spec’s own SOAPAction and paths under a table that says otherwise', async () => {
  const post = (url: string, headers: Record<string, string>) =>
    handler({
      method: 'POST',
      url,
      headers: { host: 'svc.example', ...headers },
      body: new Uint8Array(),
    });
  const wrongAction = await post('/svc/v2.asmx', {
    'content-type': 'text/xml; charset=utf-8',
    soapaction: '"http://svc.example/ns/GetBookingDetails"',
  });
  expect(wrongAction.status).toBe(422);
  const oldPath = await post('/API/1_0/SOAP/ServiceAPI.asmx', {
    'content-type': 'text/xml; charset=utf-8',
  });
  expect([oldPath.status, oldPath.headers['content-type'], oldPath.body]).toEqual([
    422,
    'text/x-fault',
    'Bad: no service at /API/1_0/SOAP/ServiceAPI.asmx; the endpoint is /svc/v2.asmx\n',
  ]);
});

describe('the binding and operation a request names, from the table', () => {
  const [v11, v12] = WIRE.bindings.filter((b) => b.kind === 'soap');
  const endpoint = WIRE.endpointPath;
  it.each([
    { given: [endpoint, 'text/xml; charset=utf-8'], want: v11!.id },
    { given: [endpoint, 'TEXT/XML'], want: v11!.id }, // the media type, any case, any parameters
    { given: [`${endpoint}/twelve`, 'application/soap+xml; action="urn:act:X"'], want: v12!.id },
    { given: [endpoint, 'application/soap+xml'], want: undefined }, // SOAP 1.2 has its own path here
    { given: [`${endpoint}/twelve`, 'text/xml'], want: undefined },
    { given: [endpoint, undefined], want: undefined },
    { given: [endpoint, WIRE.bindings[0]!.requestContentType!], want: WIRE.bindings[0]!.id },
    { given: [endpoint, ' text/xml ; charset="UTF-8"'], want: v11!.id }, // parsed, not known
  ])('$given.0 with $given.1 → $want', ({ given: [path, type], want }) => {
    expect(soapBindingAt(WIRE, path!, type)?.id).toBe(want);
  });

  it.each([
    { binding: v11!, headers: { soapaction: '"urn:act:GetShows"' }, want: '"urn:act:GetShows"' },
    { binding: v11!, headers: { 'content-type': 'text/xml; action=x' }, want: undefined },
    { binding: v12!, headers: { 'content-type': 'a/b; action="urn:act:X"' }, want: 'urn:act:X' },
    {
      binding: v12!,
      headers: { 'content-type': 'a/b;action=urn:act:Y; charset=utf-8' },
      want: 'urn:act:Y',
    },
    { binding: v12!, headers: { soapaction: 'urn:act:Z' }, want: undefined },
  ])('$binding.id reads $headers as $want', ({ binding, headers, want }) => {
    expect(sentSoapAction(binding, headers)).toBe(want);
  });

  it.each([
    { given: `${endpoint}/op/GetShows.xml`, want: 'GetShows' },
    { given: `${endpoint}/op/GetShows.xml?x=1&y=2`, want: 'GetShows' }, // the query is not the path
    { given: `${endpoint}/op/.xml`, want: undefined }, // no name
    { given: `${endpoint}/GetShows`, want: undefined }, // the spec's shape, not this table's
    { given: `${endpoint}?wsdl`, want: undefined },
  ])('names the operation of HTTP path $given: $want', ({ given, want }) => {
    expect(httpOperationAt(WIRE, given)).toBe(want);
  });

  it.each([
    { given: ' "urn:act:X" ', want: 'urn:act:X' },
    { given: 'urn:act:X', want: 'urn:act:X' },
    { given: '""', want: '' },
    { given: '"', want: '"' }, // one quote is not a pair
    { given: '"urn:act:X', want: '"urn:act:X' },
    { given: 'urn:act:X"', want: 'urn:act:X"' },
    { given: '"a"b"', want: 'a"b' }, // only the outer pair goes
  ])('counts SOAPAction $given as $want (quotes around it do not count)', ({ given, want }) => {
    expect(unquoteAction(given)).toBe(want);
  });
});
