// One envelope, one meaning: a request carrying a part twice (Header, Body, AuthenticationHeader,
// a header field, a parameter, a credential HTTP header) is refused with InvalidRequest naming
// the duplicate, on every binding: a gateway that checked one copy must never see the service
// execute another. And unauthenticated work is bounded: a body of many distinct names is refused
// by a limit before it costs anything.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENDPOINT,
  SOAP_ENV,
  authHeaderXml,
  post,
  sign,
  soapNamespaceOf,
  type SoapVersion,
} from '../../support/requests.js';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
let ns: string;
let key: { apiKey: string; secretKey: string };
beforeAll(async () => {
  ref = await startReference();
  ns = soapNamespaceOf(ref.svc.server.url);
  key = ref.svc.demoKey!;
});
afterAll(() => ref.stop());

let tick = 0;
const auth = (op: string) => {
  const Timestamp = new Date(Date.now() + tick++).toISOString();
  return {
    Timestamp,
    Operation: op,
    Signature: sign(op, Timestamp, key.secretKey),
    APIKey: key.apiKey,
  };
};
const OP = 'GetEventDetails7';
const params = '<eventId>1</eventId>';

function soap(version: SoapVersion, envelope: string) {
  const type: Record<string, string> =
    version === '1.1'
      ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ns}${OP}"` }
      : { 'content-type': `application/soap+xml; charset=utf-8; action="${ns}${OP}"` };
  return post(`${ref.svc.server.url}${ENDPOINT}`, envelope, type);
}
const envelope = (version: SoapVersion, inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${SOAP_ENV[version]}">${inner}</s:Envelope>`;
const header = (...h: string[]) => `<s:Header>${h.join('')}</s:Header>`;
const body = (p = params) => `<s:Body><${OP} xmlns="${ns}">${p}</${OP}></s:Body>`;

describe.each(['1.1', '1.2'] as const)('SOAP %s', (version) => {
  const cases = () => {
    const a = authHeaderXml(ns, auth(OP));
    const v = auth(OP);
    const twoKeys = `<AuthenticationHeader xmlns="${ns}"><Timestamp>${v.Timestamp}</Timestamp><Operation>${OP}</Operation><Signature>${v.Signature}</Signature><APIKey>${v.APIKey}</APIKey><APIKey>ak_other</APIKey></AuthenticationHeader>`;
    return [
      {
        given: 'two Body elements',
        xml: header(a) + body() + body('<eventId>2</eventId>'),
        want: /duplicate Body/,
      },
      {
        given: 'two Header elements',
        xml: header(a) + header(authHeaderXml(ns, auth(OP))) + body(),
        want: /duplicate Header/,
      },
      {
        given: 'two AuthenticationHeaders',
        xml: header(a, authHeaderXml(ns, auth(OP))) + body(),
        want: /duplicate AuthenticationHeader/,
      },
      { given: 'a header field twice', xml: header(twoKeys) + body(), want: /duplicate .*APIKey/ },
      {
        given: 'a parameter twice',
        xml: header(a) + body('<eventId>1</eventId><eventId>2</eventId>'),
        want: /duplicate parameter eventId/,
      },
    ];
  };
  it('refuses every duplicate with InvalidRequest naming it', async () => {
    for (const c of cases()) {
      const res = await soap(version, envelope(version, c.xml));
      expect(res.text, c.given).toContain('<ErrorCode');
      expect(res.text, c.given).toContain('InvalidRequest');
      expect(res.text, c.given).toMatch(c.want);
    }
  });
});

/** A raw HTTP request (fetch cannot send a header field twice). */
function raw(
  method: string,
  path: string,
  headers: [string, string][],
  payload = '',
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(ref.svc.server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    const grouped = new Map<string, string[]>();
    for (const [k, v] of headers) grouped.set(k, [...(grouped.get(k) ?? []), v]);
    for (const [k, v] of grouped) req.setHeader(k, v.length === 1 ? v[0]! : v);
    req.on('error', reject).end(payload);
  });
}

describe.each(['GET', 'POST'] as const)('HTTP %s', (method) => {
  const call = (query: string, extra: [string, string][] = []) => {
    const a = auth(OP);
    const creds: [string, string][] = [
      ['APIKey', a.APIKey],
      ['Timestamp', a.Timestamp],
      ['Signature', a.Signature],
      ...extra,
    ];
    return method === 'GET'
      ? raw('GET', `${ENDPOINT}/${OP}?${query}`, creds)
      : raw(
          'POST',
          `${ENDPOINT}/${OP}`,
          [['content-type', 'application/x-www-form-urlencoded'], ...creds],
          query,
        );
  };
  it('refuses a parameter twice', async () => {
    const res = await call('eventId=1&eventId=2');
    expect(res).toMatchObject({ status: 400 });
    expect(res.text).toMatch(/^InvalidRequest: .*duplicate parameter eventId/);
  });
  it('refuses a credential header twice', async () => {
    const res = await call('eventId=1', [['APIKey', 'ak_other']]);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^InvalidRequest: .*duplicate .*APIKey/i);
  });
  it('still answers the same request without duplicates', async () => {
    expect((await call('eventId=1')).status).toBe(200);
  });
});

describe('HTTP POST', () => {
  it('refuses a parameter in both the query and the body', async () => {
    const a = auth(OP);
    const res = await raw(
      'POST',
      `${ENDPOINT}/${OP}?eventId=2`,
      [
        ['content-type', 'application/x-www-form-urlencoded'],
        ['APIKey', a.APIKey],
        ['Timestamp', a.Timestamp],
        ['Signature', a.Signature],
      ],
      'eventId=1',
    );
    expect(res.status).toBe(400);
    expect(res.text).toMatch(
      /^InvalidRequest: .*duplicate parameter eventId: in the query and the body/,
    );
  });
});

describe('unauthenticated work', () => {
  it('refuses a body of many distinct names by a limit, naming it', async () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `<n${i} a${i}="x"/>`).join('');
    const res = await soap(
      '1.1',
      envelope('1.1', `<s:Body><${OP} xmlns="${ns}">${names}</${OP}></s:Body>`),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.text).toMatch(/InvalidRequest/);
    expect(res.text).toMatch(/more than \d+ distinct names/);
  });
});
