// The reference service over real HTTP: help pages at the endpoint with test forms and the browser
// bundle; /healthz, ?WSDL and the bindings as before; CORS when configured, nothing when not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE } from '@evgen/event-management/service';
import { renderWsdl } from '@evgen/event-management/wsdl';
import { startReference, type Reference } from '../reference/harness.js';
import { OPERATION_NAMES } from '../../support/help.js';
import { soapNamespaceOf } from '../../support/requests.js';

const APP = 'http://app.example:3000';
let ref: Reference;
let endpoint: string;
beforeAll(async () => {
  ref = await startReference({ events: 4, bookings: 40 }, { cors: [APP] });
  endpoint = `${ref.svc.server.url}${SERVICE.endpointPath}`;
});
afterAll(() => ref.stop());

describe('help pages of the reference service', () => {
  it('answers a browser at the endpoint with the service page linking every operation', async () => {
    const res = await fetch(endpoint, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const name of OPERATION_NAMES) expect(html).toContain(`href="ServiceAPI.asmx?op=${name}"`);
  });

  it('operation pages carry the test form and the bundle they load is the generated client', async () => {
    const page = await (await fetch(`${endpoint}?op=GetBooking`)).text();
    expect(page).toContain('<form class="test-form" data-operation="GetBooking"');
    const js = await fetch(`${endpoint}?client.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const source = await js.text();
    expect(source).toMatch(/export\s*\{[^}]*EventServiceClient/);
    expect(source).toContain('GetBookingsBatchResponse');
  });

  it('logs help requests like every other', async () => {
    ref.logs.length = 0;
    await fetch(`${endpoint}?op=Nope`);
    expect(JSON.parse(ref.logs[0]!)).toMatchObject({ binding: 'help', status: 404 });
  });
});

describe('unchanged', () => {
  it('/healthz', async () => {
    const res = await fetch(`${ref.svc.server.url}/healthz`, { headers: { accept: 'text/html' } });
    // JSON with the status of the database and the workers (issues 13, 38), never a help page.
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('?WSDL', async () => {
    const res = await fetch(`${endpoint}?WSDL`, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(await res.text()).toBe(renderWsdl(endpoint, soapNamespaceOf(ref.svc.server.url)));
  });

  it.each(['soap11', 'soap12', 'httpGet', 'httpPost'] as const)(
    'calls over %s',
    async (binding) => {
      const details = await ref.client(binding).getBookingDetails({ bookingId: 1 });
      expect(details.BookingId).toBe(1);
    },
  );
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin', async () => {
    const res = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, soapaction',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-headers')).toContain('SOAPAction');
  });

  it('names the origin on a call from it, and no other', async () => {
    const call = (origin: string) =>
      fetch(`${endpoint}/GetShows`, { headers: { origin } }).then((r) => r.headers);
    expect((await call(APP)).get('access-control-allow-origin')).toBe(APP);
    expect((await call('http://other.example')).get('access-control-allow-origin')).toBeNull();
  });

  it('is off without --cors: a preflight is refused as any OPTIONS was', async () => {
    const plain = await startReference({ events: 2, bookings: 4 });
    try {
      const res = await fetch(`${plain.svc.server.url}${SERVICE.endpointPath}`, {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.stop();
    }
  });
});
