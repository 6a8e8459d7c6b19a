// The namespace and the WSDL's addresses: from the Host header by default (and then a request in
// the namespace of another host is answered in its own), fixed by a public base URL otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { createEventService, type EventServiceOptions } from '@evgen/event-management/server';
import {
  ENDPOINT,
  KEY,
  authHeaderXml,
  authValues,
  sendWithHost,
  soapRequest,
} from '../../support/requests.js';
import { bookingDetails, lookupTestKey } from '../../support/stub.js';

const PUBLIC = 'https://events.example.com';
const PUBLIC_NS = `${PUBLIC}/API/1_0/SOAP/`;

async function start(options: Partial<EventServiceOptions> = {}): Promise<RunningServer> {
  return listen(
    createEventService(
      { getBookingDetails: bookingDetails },
      {
        lookupKey: lookupTestKey,
        partial: true,
        onDiagnostic: () => undefined,
        ...options,
      },
    ),
  );
}

const client = (server: RunningServer, namespace?: string) =>
  new EventServiceClient({
    baseUrl: server.url,
    apiKey: KEY.apiKey,
    secretKey: KEY.secret,
    ...(namespace ? { namespace } : {}),
  });

/** A signed SOAP 1.1 GetBookingDetails in namespace `ns`, sent with the Host header `host`. */
const soapIn = (server: RunningServer, ns: string, host: string) =>
  sendWithHost(`${server.url}${ENDPOINT}`, host, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ns}GetBookingDetails"` },
    body: soapRequest(
      '1.1',
      ns,
      'GetBookingDetails',
      '<bookingId>3</bookingId>',
      authHeaderXml(ns, authValues('GetBookingDetails')),
    ),
  });

const attr = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((m) => m[1]);

describe('without a public URL, the Host header decides', () => {
  let server: RunningServer;
  beforeAll(async () => (server = await start()));
  afterAll(() => server.close());

  it('puts the Host into the WSDL: namespace and every address', async () => {
    const wsdl = await sendWithHost(`${server.url}${ENDPOINT}?wsdl`, 'api.example:8443');
    expect(new Set(attr(wsdl.text, 'targetNamespace'))).toEqual(
      new Set(['https://api.example:8443/API/1_0/SOAP/']),
    );
    expect(new Set(attr(wsdl.text, 'address location'))).toEqual(
      new Set([`http://api.example:8443${ENDPOINT}`]),
    );
  });

  it('answers a client generated from another host (127.0.0.1 against localhost) in its own namespace', async () => {
    const port = new URL(server.url).port;
    const generatedFrom = `https://localhost:${port}/API/1_0/SOAP/`;
    expect(await client(server, generatedFrom).getBookingDetails({ bookingId: 3 })).toMatchObject({
      BookingReference: 'PK-3',
    });
    const raw = await soapIn(server, generatedFrom, `127.0.0.1:${port}`);
    expect(raw.status).toBe(200);
    expect(raw.text).toContain(`<GetBookingDetailsResponse xmlns="${generatedFrom}">`);
  });

  it.each([
    ['another version path', (port: string) => `https://127.0.0.1:${port}/API/2_0/SOAP/`],
    ['the http scheme', (port: string) => `http://127.0.0.1:${port}/API/1_0/SOAP/`],
    ['user information before the host', () => 'https://x@evil.example/API/1_0/SOAP/'],
  ])('refuses a namespace with %s', async (_, ns) => {
    const port = new URL(server.url).port;
    const res = await soapIn(server, ns(port), `127.0.0.1:${port}`);
    expect(res.status).toBe(500);
    expect(res.text).toContain('InvalidRequest');
    expect(res.text).toContain(
      `operations are in namespace https://127.0.0.1:${port}/API/1_0/SOAP/`,
    );
  });
});

describe('with a public URL, the namespace and the addresses are fixed', () => {
  let server: RunningServer;
  beforeAll(async () => (server = await start({ publicBaseUrl: PUBLIC })));
  afterAll(() => server.close());

  it.each(['evil.example', '127.0.0.1'])('serves the same WSDL with Host %s', async (host) => {
    const wsdl = await sendWithHost(`${server.url}${ENDPOINT}?wsdl`, host);
    expect(wsdl.status).toBe(200);
    expect(new Set(attr(wsdl.text, 'targetNamespace'))).toEqual(new Set([PUBLIC_NS]));
    const locations = attr(wsdl.text, 'address location');
    expect(locations.length).toBeGreaterThan(0);
    expect(new Set(locations)).toEqual(new Set([`${PUBLIC}${ENDPOINT}`]));
    expect(wsdl.text).not.toContain(host);
  });

  it('answers requests in the public namespace whatever the Host', async () => {
    expect(await client(server, PUBLIC_NS).getBookingDetails({ bookingId: 3 })).toMatchObject({
      BookingReference: 'PK-3',
    });
    expect((await soapIn(server, PUBLIC_NS, 'evil.example')).status).toBe(200);
  });

  it('refuses the namespace of another host, naming the public one', async () => {
    const port = new URL(server.url).port;
    const res = await soapIn(
      server,
      `https://127.0.0.1:${port}/API/1_0/SOAP/`,
      `127.0.0.1:${port}`,
    );
    expect(res.status).toBe(500);
    expect(res.text).toContain(`operations are in namespace ${PUBLIC_NS}`);
  });

  it('keeps a path prefix of the public URL (a proxy mounting the service under /events)', async () => {
    const mounted = await start({ publicBaseUrl: 'https://example.com/events/' });
    try {
      const wsdl = await sendWithHost(`${mounted.url}${ENDPOINT}?wsdl`, 'internal:8080');
      expect(new Set(attr(wsdl.text, 'targetNamespace'))).toEqual(
        new Set(['https://example.com/events/API/1_0/SOAP/']),
      );
      expect(new Set(attr(wsdl.text, 'address location'))).toEqual(
        new Set([`https://example.com/events${ENDPOINT}`]),
      );
    } finally {
      await mounted.close();
    }
  });
});
