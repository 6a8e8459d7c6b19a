// Where help pages are answered at the endpoint, and that nothing else changed: ?wsdl, calls on
// every binding and every other GET answer as they do without help pages. The service handler is
// called as a function here; test/integration/help covers the same over real HTTP.
import { describe, expect, it } from 'vitest';
import {
  type HelpPages,
  type HelpSite,
  type ServiceHandler,
  type ServiceRequest,
  type ServiceResponse,
  type HelpSamples,
} from '@evgen/runtime';
import { MAX_CACHED_PAGES, createHelpResponder, helpServiceOf } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import { helpPages } from '@evgen/event-management/help';
import { operations } from '@evgen/event-management/operations';
import {
  createEventService,
  type EventServiceOptions,
  type ServiceHandlers,
} from '@evgen/event-management/server';
import { renderWsdl } from '@evgen/event-management/wsdl';
import { KEY, authHeaderXml, authValues, soapRequest } from '../../support/requests.js';

const EP = SERVICE.endpointPath;
const HOST = 'svc.example:8080';
const NS = `https://${HOST}/API/1_0/SOAP/`;
const handlers = {
  getBookingDetails: ({ bookingId }: { bookingId: number }) => ({
    BookingId: bookingId,
    BookingReference: 'R-1',
    AttendeeCount: 1,
    InvoiceUrl: 'u',
    SecureKey: 'k',
    LeadAttendeeReference: 'A-1',
  }),
} as unknown as ServiceHandlers;

const service = (options: Partial<EventServiceOptions> = {}) =>
  createEventService(handlers, {
    lookupKey: (k) =>
      Promise.resolve(k === KEY.apiKey ? { secret: KEY.secret, name: 't' } : undefined),
    replayStore: false,
    partial: true, // two handlers: the other operations answer NotImplemented
    onDiagnostic: () => undefined,
    ...options,
  });

const call = (h: ServiceHandler, r: Partial<ServiceRequest>): Promise<ServiceResponse> =>
  h({ method: 'GET', url: EP, headers: { host: HOST }, body: new Uint8Array(), ...r });
const text = (r: ServiceResponse) =>
  typeof r.body === 'string' ? r.body : new TextDecoder().decode(r.body);

const withForms = service({ testForms: { clientScript: () => 'export const x = 1;' } });
const plain = service();
const noPages = service({ helpPages: false });

describe('help pages at the endpoint', () => {
  it.each([
    {
      given: { url: EP, headers: { host: HOST, accept: 'text/html,application/xhtml+xml' } },
      status: 200,
      page: 'service',
    },
    { given: { url: `${EP}?op=GetBooking` }, status: 200, page: 'operation' },
    {
      given: { url: `${EP}?op=GetBooking`, headers: { host: HOST, accept: 'text/html' } },
      status: 200,
      page: 'operation',
    },
    { given: { url: `${EP}?op=NoSuchOperation` }, status: 404, page: 'not found' },
    { given: { url: `${EP}?op=` }, status: 404, page: 'not found' },
    { given: { url: `${EP}?gaps` }, status: 200, page: 'gaps' },
  ])('GET $given.url answers the $page page', async ({ given, status }) => {
    const r = await call(plain, given);
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(text(r)).toMatch(/^<!doctype html>/);
  });

  it('repeats an unknown name escaped and bounded', async () => {
    const name = `<script>alert(1)</script>${'x'.repeat(500)}`;
    const r = await call(plain, { url: `${EP}?op=${encodeURIComponent(name)}` });
    expect(text(r)).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text(r)).not.toContain('<script>');
    expect(text(r)).not.toContain('x'.repeat(101));
  });

  it('serves the client bundle, and test forms, only when given one', async () => {
    const js = await call(withForms, { url: `${EP}?client.js` });
    expect([js.status, js.headers['content-type'], text(js)]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'export const x = 1;',
    ]);
    expect(text(await call(withForms, { url: `${EP}?op=GetBooking` }))).toContain('<form');
    expect((await call(plain, { url: `${EP}?client.js` })).status).toBe(405);
    expect(text(await call(plain, { url: `${EP}?op=GetBooking` }))).not.toContain('<form');
  });

  it('builds the bundle once, and again after a failure', async () => {
    let builds = 0;
    const h = service({
      testForms: {
        clientScript: () => {
          builds++;
          if (builds === 1) throw new Error('build failed');
          return 'ok';
        },
      },
    });
    expect((await call(h, { url: `${EP}?client.js` })).status).toBe(500);
    expect(text(await call(h, { url: `${EP}?client.js` }))).toBe('ok');
    expect(text(await call(h, { url: `${EP}?client.js` }))).toBe('ok');
    expect(builds).toBe(2);
  });
});

describe('everything else answers as without help pages', () => {
  const soap = () => ({
    method: 'POST',
    url: EP,
    headers: {
      host: HOST,
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"${NS}GetBookingDetails"`,
    },
    body: new TextEncoder().encode(
      soapRequest(
        '1.1',
        NS,
        'GetBookingDetails',
        '<bookingId>7</bookingId>',
        authHeaderXml(NS, authValues('GetBookingDetails')),
      ),
    ),
  });
  it.each([
    { what: 'GET without Accept: text/html', given: { url: EP } },
    { what: 'GET with another query', given: { url: `${EP}?foo` } },
    {
      what: 'HTML asked with a query',
      given: { url: `${EP}?foo`, headers: { host: HOST, accept: 'text/html' } },
    },
    {
      what: 'POST of a form to the endpoint',
      given: { method: 'POST', url: EP, headers: { host: HOST, accept: 'text/html' } },
    },
    { what: '?wsdl', given: { url: `${EP}?wsdl` } },
    { what: '?WSDL', given: { url: `${EP}?WSDL`, headers: { host: HOST, accept: 'text/html' } } },
    { what: 'HTTP GET call', given: { url: `${EP}/GetBookingDetails?bookingId=7` } },
    {
      what: 'unknown path',
      given: { url: '/elsewhere', headers: { host: HOST, accept: 'text/html' } },
    },
  ])('$what', async ({ given }) => {
    const a = await call(plain, given);
    const b = await call(noPages, given);
    expect({ ...a, body: text(a) }).toEqual({ ...b, body: text(b) });
    expect(a.headers['content-type']).not.toContain('text/html');
  });

  it('?wsdl is the generated WSDL with this address', async () => {
    expect(text(await call(plain, { url: `${EP}?WSDL` }))).toBe(
      renderWsdl(`http://${HOST}${EP}`, NS),
    );
  });

  it('a SOAP call is answered the same', async () => {
    const [a, b] = [await plain(soap()), await noPages(soap())];
    expect(a.status).toBe(200);
    expect(text(a)).toContain('<BookingReference>R-1</BookingReference>');
    expect(text(a)).toBe(text(b));
  });

  it('without help pages, GET asking for HTML is refused as before', async () => {
    const r = await call(noPages, { headers: { host: HOST, accept: 'text/html' } });
    expect(r.status).toBe(405);
  });
});

describe('rendered operation pages are kept, boundedly', () => {
  const counting = () => {
    const renders: string[] = [];
    const pages: HelpPages = {
      ...helpPages,
      operations: Object.fromEntries(
        Object.entries(helpPages.operations).map(([name, op]) => [
          name,
          { ...op, page: (s: HelpSite, x: HelpSamples) => (renders.push(s.host), op.page(s, x)) },
        ]),
      ),
    };
    const respond = createHelpResponder({ pages }, helpServiceOf(operations, authScheme, WIRE));
    const get = (host: string) =>
      respond(new URL(`http://x${EP}?op=GetShows`), undefined, {
        baseUrl: `http://${host}`,
        host,
        namespace: `https://${host}/API/1_0/SOAP/`,
      });
    return { renders, get };
  };

  it('renders a page once per address, with that address', async () => {
    const { renders, get } = counting();
    const a = text((await get('a.example'))!);
    expect(text((await get('a.example'))!)).toBe(a);
    expect(text((await get('b.example'))!)).toContain('Host: b.example');
    expect(renders).toEqual(['a.example', 'b.example']);
  });

  it(`holds at most ${MAX_CACHED_PAGES} pages, whatever Host headers come`, async () => {
    const { renders, get } = counting();
    for (let i = 0; i < MAX_CACHED_PAGES; i++) await get(`h${i}.example`);
    await get('h0.example');
    expect(renders).toHaveLength(MAX_CACHED_PAGES); // all still held
    await get(`h${MAX_CACHED_PAGES}.example`); // one more: the cache starts again
    await get('h0.example');
    expect(renders).toHaveLength(MAX_CACHED_PAGES + 2);
  });
});
