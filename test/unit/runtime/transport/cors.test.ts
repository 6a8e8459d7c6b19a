// CORS: preflights to the endpoint from allowed origins get 204 with the methods and headers the
// bindings use; answers to allowed origins name that origin (never *); other origins get no CORS
// headers; no origin, no change. Bad configuration is refused when the service is made.
import { describe, expect, it } from 'vitest';
import { type ServiceRequest, type ServiceResponse } from '@evgen/runtime';
import { corsOrigins, withCors } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { WIRE } from '@evgen/event-management/service';

const EP: string = WIRE.endpointPath;
const inner = (req: ServiceRequest): Promise<ServiceResponse> =>
  Promise.resolve({
    status: req.method === 'OPTIONS' ? 405 : 200,
    headers: { 'content-type': 'text/plain' },
    body: `inner ${req.method}`,
  });
const cors = (origins: string[]) => withCors(inner, { origins }, authScheme, WIRE);
const req = (headers: Record<string, string>, method = 'GET', url = EP): ServiceRequest => ({
  method,
  url,
  headers,
  body: new Uint8Array(),
});
const preflight = (origin: string, url = EP) =>
  req(
    {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,soapaction',
    },
    'OPTIONS',
    url,
  );

const APP = 'https://app.example.com';

describe('preflight', () => {
  it('answers 204 for an allowed origin with its methods and headers', async () => {
    const r = await cors([APP])(preflight(APP));
    expect(r.status).toBe(204);
    expect(r.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, POST',
      'access-control-max-age': '600',
    });
    const allowed = r.headers['access-control-allow-headers']!.split(', ');
    for (const h of ['APIKey', 'Timestamp', 'Signature', 'Operation', 'SOAPAction', 'Content-Type'])
      expect(allowed).toContain(h);
    expect(r.headers.vary).toContain('Origin');
    expect(r.headers).not.toHaveProperty('access-control-allow-credentials');
  });

  it.each([
    { what: 'an operation path', url: `${EP}/GetBooking` },
    { what: 'the endpoint with a query', url: `${EP}?op=GetBooking` },
  ])('answers for $what', async ({ url }) => {
    expect((await cors([APP])(preflight(APP, url))).status).toBe(204);
  });

  it('refuses an origin not in the list', async () => {
    const r = await cors([APP])(preflight('https://evil.example'));
    expect(r.status).toBe(403);
    expect(r.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('leaves other paths and plain OPTIONS to the service', async () => {
    expect((await cors([APP])(preflight(APP, '/healthz'))).status).toBe(405);
    expect((await cors([APP])(req({ origin: APP }, 'OPTIONS'))).status).toBe(405);
  });
});

describe('answers', () => {
  it.each([
    { config: [APP], origin: APP, want: APP },
    { config: [`${APP}/`], origin: APP, want: APP },
    { config: ['HTTPS://APP.example.com'], origin: APP, want: APP },
    { config: ['*'], origin: 'http://localhost:3000', want: 'http://localhost:3000' },
    { config: [APP], origin: 'https://evil.example', want: undefined },
    { config: [APP], origin: 'https://app.example.com:8443', want: undefined },
  ])('config $config, origin $origin → $want', async ({ config, origin, want }) => {
    const r = await cors(config)(req({ origin }));
    expect(r.body).toBe('inner GET');
    expect(r.headers['access-control-allow-origin']).toBe(want);
    expect(r.headers.vary).toBe('Origin');
    expect(r.headers).not.toHaveProperty('access-control-allow-credentials');
  });

  it('changes nothing for requests without an Origin', async () => {
    expect(await cors([APP])(req({}))).toEqual(await inner(req({})));
    expect((await cors([APP])(req({}, 'OPTIONS'))).status).toBe(405);
  });

  it('never answers * even when any origin is allowed', async () => {
    for (const origin of ['https://a.example', 'null'])
      expect((await cors(['*'])(req({ origin }))).headers['access-control-allow-origin']).toBe(
        origin,
      );
  });
});

describe('configuration', () => {
  it.each(['app.example.com', 'https://app.example.com/path', 'ftp://x.example', '', 'https://'])(
    'refuses %j',
    (bad) => {
      expect(() => corsOrigins([bad])).toThrow(TypeError);
      expect(() => cors([bad])).toThrow(/is not an origin/);
    },
  );
  it.each(['http://127.0.0.1:8080', 'https://[::1]:3000', 'http://localhost', '*'])(
    'accepts %s',
    (ok) => {
      expect(() => corsOrigins([ok])).not.toThrow();
    },
  );
});
