// Routing at the one address, binding rules, and every way a request can go wrong: each becomes
// the binding's fault, the handler is not called, and the server keeps serving.
import { describe, expect, it } from 'vitest';
import { ServiceFault, type Binding } from '@evgen/runtime';
import { parseFault } from '@evgen/runtime/internal';
import { WIRE } from '@evgen/event-management/service';
import {
  ENDPOINT,
  authHeaderXml,
  authValues,
  echoBody,
  echoServerPerFile,
  credentialHeaders,
  send,
  soapEnvelope,
  sendSoap,
  sendWithHost,
  startServer,
  type RawResponse,
} from './fixtures.js';

const file = echoServerPerFile();

const code = (binding: Binding, r: RawResponse) =>
  parseFault(binding, r.status, r.type, new TextEncoder().encode(r.text), WIRE.faults)?.code;
const soap11 = (body: string, headers: Record<string, string> = {}) =>
  send(file.h.url + ENDPOINT, {
    method: 'POST',
    headers: {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"${file.h.ns}Echo"`,
      ...headers,
    },
    body,
  });
const signedEnvelope = (version: '1.1' | '1.2', op = 'Echo', body = echoBody(file.h.ns)) =>
  soapEnvelope(version, authHeaderXml(file.h.ns, authValues(op)), body);
const get = (path: string, op = 'Echo') =>
  send(`${file.h.url}${ENDPOINT}${path}`, { headers: credentialHeaders(authValues(op)) });

const rawGet = (path: string, host: string) => sendWithHost(`${file.h.url}${path}`, host);

describe('successful answers', () => {
  it.each([
    [
      'soap11',
      () => sendSoap(file.h, '1.1', 'Echo', echoBody(file.h.ns), authValues('Echo')),
      'text/xml; charset=utf-8',
    ],
    [
      'soap12',
      () => sendSoap(file.h, '1.2', 'Echo', echoBody(file.h.ns), authValues('Echo')),
      'application/soap+xml; charset=utf-8',
    ],
    ['httpGet', () => get('/Echo?count=7&text=hi'), 'text/xml; charset=utf-8'],
  ] as const)('%s answers 200 with %s', async (_, go, type) => {
    const r = await go();
    expect([r.status, r.type]).toEqual([200, type]);
    expect(r.text).toContain('<count>7</count>');
  });

  it('answers an operation with no result with an empty response element (SOAP) or an empty body (HTTP)', async () => {
    const s = await sendSoap(
      file.h,
      '1.1',
      'Forget',
      `<Forget xmlns="${file.h.ns}"><ref>R1</ref></Forget>`,
      authValues('Forget'),
      { soapaction: `"${file.h.ns}Forget"` },
    );
    expect(s.status).toBe(200);
    expect(s.text).toContain(`<ForgetResponse xmlns="${file.h.ns}" />`);
    const g = await get('/Forget?ref=R1', 'Forget');
    expect([g.status, g.type, g.text]).toEqual([200, 'text/xml; charset=utf-8', '']);
    expect(file.h.calls).toEqual(['forget', 'forget']);
  });
});

describe('WSDL and namespace', () => {
  it.each(['?WSDL', '?wsdl'])(
    'GET %s answers the WSDL for this address and namespace',
    async (q) => {
      const r = await send(`${file.h.url}${ENDPOINT}${q}`, {});
      expect([r.status, r.type]).toEqual([200, 'text/xml; charset=utf-8']);
      expect(r.text).toContain(`targetNamespace="${file.h.ns}"`);
      expect(r.text).toContain(`location="${file.h.url}${ENDPOINT}"`);
    },
  );

  it('derives the namespace from the Host header, and ignores a Host that is not a plain host name', async () => {
    expect((await rawGet(`${ENDPOINT}?wsdl`, 'api.example:8443')).text).toContain(
      'targetNamespace="https://api.example:8443/API/1_0/SOAP/"',
    );
    const evil = await rawGet(`${ENDPOINT}?wsdl`, 'x"><script>');
    expect(evil.text).toContain('targetNamespace="https://localhost/API/1_0/SOAP/"');
    expect(evil.text).not.toContain('<script>');
  });

  it('uses a configured namespace for every request', async () => {
    const s = await startServer({}, { namespace: 'urn:fixed/' });
    try {
      const r = await send(`${s.url}${ENDPOINT}/Echo?count=1&text=a`, {
        headers: credentialHeaders(authValues('Echo')),
      });
      expect(r.text).toContain('xmlns="urn:fixed/"');
    } finally {
      await s.server.close();
    }
  });
});

describe('malformed requests', () => {
  it.each([
    ['not XML', 'hello'],
    [
      'unclosed elements',
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><Echo>',
    ],
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY a "b">]><x/>'],
    ['a root that is not an Envelope', '<Echo/>'],
    ['an empty Body', soapEnvelope('1.1', undefined, '')],
  ])('SOAP 1.1 with %s: 500 soap:Client InvalidRequest', async (_, body) => {
    const r = await soap11(body);
    expect([r.status, code('soap11', r)]).toEqual([500, 'InvalidRequest']);
    expect(r.text).toContain('soap:Client');
  });

  it('SOAP 1.2 with malformed XML: 400 Sender InvalidRequest', async () => {
    const r = await send(file.h.url + ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/soap+xml' },
      body: '<<<',
    });
    expect([r.status, code('soap12', r)]).toEqual([400, 'InvalidRequest']);
  });

  it('refuses a SOAP 1.2 envelope sent as text/xml', async () => {
    const r = await soap11(signedEnvelope('1.2'));
    expect(code('soap11', r)).toBe('InvalidRequest');
  });

  it('refuses an unknown operation: SOAP by name and by namespace, HTTP with 404', async () => {
    const unknown = await soap11(signedEnvelope('1.1', 'Nope', `<Nope xmlns="${file.h.ns}"/>`), {
      soapaction: `"${file.h.ns}Nope"`,
    });
    expect(code('soap11', unknown)).toBe('InvalidRequest');
    const foreign = await soap11(signedEnvelope('1.1', 'Echo', echoBody('urn:elsewhere')));
    expect(code('soap11', foreign)).toBe('InvalidRequest');
    const http = await get('/Nope?x=1');
    expect([http.status, code('httpGet', http)]).toEqual([404, 'InvalidRequest']);
    expect((await send(`${file.h.url}/elsewhere`, {})).status).toBe(404);
    expect(file.h.calls).toEqual([]);
  });

  it.each([
    ['application/json', 415],
    ['text/xml; charset=iso-8859-1', 415],
    ['text/xmlish', 415],
  ])('refuses content type %s at the endpoint with %i', async (type, status) => {
    const r = await send(file.h.url + ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': type, soapaction: `"${file.h.ns}Echo"` },
      body: signedEnvelope('1.1'),
    });
    expect([r.status, code('soap11', r)]).toEqual([status, 'InvalidRequest']);
  });

  it('refuses an HTTP POST that is not a form (415) and a wrong method (405)', async () => {
    const notForm = await send(`${file.h.url}${ENDPOINT}/Echo`, {
      method: 'POST',
      headers: { ...credentialHeaders(authValues('Echo')), 'content-type': 'text/plain' },
      body: 'count=1&text=a',
    });
    expect([notForm.status, code('httpPost', notForm)]).toEqual([415, 'InvalidRequest']);
    expect((await send(file.h.url + ENDPOINT, { method: 'PUT', body: 'x' })).status).toBe(405);
    expect((await send(`${file.h.url}${ENDPOINT}/Echo`, { method: 'DELETE' })).status).toBe(405);
    expect(file.h.calls).toEqual([]);
  });
});

describe('SOAPAction and action', () => {
  it.each([`"{ns}Echo"`, '{ns}Echo', ` "{ns}Echo" `])(
    'SOAP 1.1 accepts SOAPAction %s',
    async (action) => {
      const r = await soap11(signedEnvelope('1.1'), {
        soapaction: action.replace('{ns}', file.h.ns),
      });
      expect(r.status).toBe(200);
    },
  );

  it.each([
    ['disagreeing', `"{ns}Forget"`],
    ['in another namespace', '"urn:x/Echo"'],
    ['empty', '""'],
  ])('SOAP 1.1 refuses a SOAPAction %s', async (_, action) => {
    const r = await soap11(signedEnvelope('1.1'), {
      soapaction: action.replace('{ns}', file.h.ns),
    });
    expect(code('soap11', r)).toBe('InvalidRequest');
    expect(file.h.calls).toEqual([]);
  });

  it('SOAP 1.1 refuses a missing SOAPAction', async () => {
    const r = await send(file.h.url + ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      body: signedEnvelope('1.1'),
    });
    expect(code('soap11', r)).toBe('InvalidRequest');
  });

  const soap12 = (type: string) =>
    send(file.h.url + ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': type.replace('{ns}', file.h.ns) },
      body: signedEnvelope('1.2'),
    });

  it.each([
    'application/soap+xml',
    'application/soap+xml; charset=utf-8; action="{ns}Echo"',
    'application/soap+xml;action="{ns}Echo";charset=utf-8',
    'application/soap+xml; action={ns}Echo',
    'Application/SOAP+XML; Action="{ns}Echo"',
  ])('SOAP 1.2 accepts %s', async (type) => {
    expect((await soap12(type)).status).toBe(200);
  });

  it('SOAP 1.2 refuses an action disagreeing with the body', async () => {
    const r = await soap12('application/soap+xml; charset=utf-8; action="{ns}Forget"');
    expect([r.status, code('soap12', r)]).toEqual([400, 'InvalidRequest']);
    expect(file.h.calls).toEqual([]);
  });
});

describe('parameters', () => {
  it('SOAP: a bad value is InvalidParameter naming the XML path', async () => {
    const r = await soap11(
      signedEnvelope(
        '1.1',
        'Echo',
        `<Echo xmlns="${file.h.ns}"><count>seven</count><text>a</text></Echo>`,
      ),
    );
    const f = parseFault('soap11', r.status, r.type, new TextEncoder().encode(r.text), WIRE.faults);
    expect(f).toMatchObject({ code: 'InvalidParameter', soapFaultCode: 'soap:Client' });
    expect(f?.faultString).toMatch(/^Echo\/count: expected int/);
  });

  it('SOAP: a missing parameter is InvalidParameter', async () => {
    const r = await soap11(
      signedEnvelope('1.1', 'Echo', `<Echo xmlns="${file.h.ns}"><text>a</text></Echo>`),
    );
    expect(code('soap11', r)).toBe('InvalidParameter');
    expect(r.text).toContain('Echo/count');
  });

  it('HTTP GET: a bad value is 400 InvalidParameter naming the parameter', async () => {
    const r = await get('/Echo?count=1.5&text=a');
    expect([r.status, r.text]).toEqual([400, 'InvalidParameter: count: expected int, got "1.5"\n']);
    expect(file.h.calls).toEqual([]);
  });
});

describe('handler failures', () => {
  const leaky = () => {
    const e = new Error('SQLITE_ERROR: near "SELECT * FROM secrets"');
    e.stack = `${e.message}\n    at handler (/srv/app/handlers.ts:12:3)`;
    return e;
  };

  it.each([
    ['soap11', 500, 'soap:Server'],
    ['soap12', 500, 'soap12:Receiver'],
    ['httpGet', 500, undefined],
  ] as const)(
    '%s: a throwing handler answers %i Internal with nothing of the original',
    async (binding, status, soapCode) => {
      file.behaviour = () => {
        throw leaky();
      };
      const r =
        binding === 'httpGet'
          ? await get('/Echo?count=1&text=a')
          : await sendSoap(
              file.h,
              binding === 'soap11' ? '1.1' : '1.2',
              'Echo',
              echoBody(file.h.ns),
              authValues('Echo'),
            );
      const f = parseFault(
        binding,
        r.status,
        r.type,
        new TextEncoder().encode(r.text),
        WIRE.faults,
      );
      expect(f).toMatchObject({
        code: 'Internal',
        faultString: 'Internal error',
        httpStatus: status,
        soapFaultCode: soapCode,
      });
      expect(r.text).not.toMatch(/SQLITE|SELECT|handlers\.ts|\bat /);
      const log = file.h.logs.at(-1)!;
      expect(log).toMatchObject({ faultCode: 'Internal', status });
      expect((log.error as Error).message).toMatch(/SQLITE_ERROR/); // the original goes to the log
    },
  );

  it('withholds the message of a ServiceFault("Internal", …) too', async () => {
    file.behaviour = () => {
      throw new ServiceFault('Internal', 'connection string: postgres://u:p@db');
    };
    expect((await get('/Echo?count=1&text=a')).text).toBe('Internal: Internal error\n');
  });

  it.each([
    ['NotFound', 404],
    ['Conflict', 409],
  ] as const)('passes a %s fault through (HTTP %i, SOAP 1.1 soap:Client)', async (c, status) => {
    file.behaviour = () => {
      throw new ServiceFault(c, 'event 3 is full');
    };
    expect(await get('/Echo?count=1&text=a')).toMatchObject({
      status,
      text: `${c}: event 3 is full\n`,
    });
    const s = await sendSoap(file.h, '1.1', 'Echo', echoBody(file.h.ns), authValues('Echo'));
    expect(
      parseFault('soap11', s.status, s.type, new TextEncoder().encode(s.text), WIRE.faults),
    ).toMatchObject({
      code: c,
      soapFaultCode: 'soap:Client',
      faultString: 'event 3 is full',
    });
  });
});
