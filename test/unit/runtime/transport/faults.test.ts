// Fault encoding in the three forms, read back element by element (by namespace, never by prefix),
// and the client's decoding of each form.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FAULT_CODES,
  SOAP11_NS,
  SOAP12_NS,
  ServiceFault,
  encodeHttpFault,
  encodeSoapFault,
  parseFault,
  parseSoapEnvelope,
  type XmlElement,
} from '@evgen/runtime';
import type { IrFault } from '../../../../src/generator/ir/model.js';
import { projectIr } from '../../../support/ir.js';

// What spec/errors.yaml says of each code: SOAP codes and HTTP statuses.
let spec: ReadonlyMap<string, IrFault>;
beforeAll(async () => {
  spec = new Map((await projectIr()).faults.map((f) => [f.code, f]));
});

const NS = 'https://svc.example/API/1_0/SOAP/';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const kid = (el: XmlElement | undefined, name: string, ns: string) =>
  el?.children.find((c) => c.name === name && c.ns === ns);
const fault = (body: string) => {
  const env = parseSoapEnvelope(body);
  expect(env.payload?.name).toBe('Fault');
  return env.payload!;
};
const bytes = (s: string) => new TextEncoder().encode(s);

describe('SOAP 1.1 faults', () => {
  it('answer 500 with faultcode, faultstring and detail/ErrorCode in the service namespace', () => {
    const out = encodeSoapFault('1.1', new ServiceFault('NotFound', 'no booking 5 <here>'), NS);
    expect([out.status, out.contentType]).toEqual([500, 'text/xml; charset=utf-8']);
    const f = fault(out.body);
    expect(f.ns).toBe(SOAP11_NS);
    expect(kid(f, 'faultcode', '')?.text).toBe('soap:Client');
    expect(kid(f, 'faultstring', '')?.text).toBe('no booking 5 <here>');
    expect(kid(kid(f, 'detail', ''), 'ErrorCode', NS)?.text).toBe('NotFound');
  });

  it('use soap:Server for Internal, with the original message withheld', () => {
    const f = fault(
      encodeSoapFault('1.1', new ServiceFault('Internal', 'SQLITE_ERROR: no such table'), NS).body,
    );
    expect(kid(f, 'faultcode', '')?.text).toBe('soap:Server');
    expect(kid(f, 'faultstring', '')?.text).toBe('Internal error');
  });
});

describe('SOAP 1.2 faults', () => {
  it.each([
    ['InvalidParameter', 400, 'soap12:Sender'],
    ['NotImplemented', 500, 'soap12:Receiver'],
    ['Internal', 500, 'soap12:Receiver'],
  ] as const)(
    '%s: HTTP %i, Code/Value %s, Reason/Text xml:lang="en", Detail/ErrorCode',
    (code, status, value) => {
      const out = encodeSoapFault('1.2', new ServiceFault(code, 'count: expected int'), NS);
      expect([out.status, out.contentType]).toEqual([
        status,
        'application/soap+xml; charset=utf-8',
      ]);
      const f = fault(out.body);
      expect(f.ns).toBe(SOAP12_NS);
      expect(kid(kid(f, 'Code', SOAP12_NS), 'Value', SOAP12_NS)?.text).toBe(value);
      const text = kid(kid(f, 'Reason', SOAP12_NS), 'Text', SOAP12_NS);
      expect(text?.attributes[`{${XML_NS}}lang`]).toBe('en');
      expect(text?.text).toBe(code === 'Internal' ? 'Internal error' : 'count: expected int');
      expect(kid(kid(f, 'Detail', SOAP12_NS), 'ErrorCode', NS)?.text).toBe(code);
    },
  );
});

describe('HTTP faults', () => {
  it.each([
    [new ServiceFault('InvalidRequest', 'x'), 400],
    [new ServiceFault('InvalidParameter', 'x'), 400],
    [new ServiceFault('AuthenticationFailed', 'x'), 403],
    [new ServiceFault('AuthenticationFailed', 'x', 401), 401],
    [new ServiceFault('NotFound', 'x'), 404],
    [new ServiceFault('InvalidRequest', 'x', 405), 405],
    [new ServiceFault('Conflict', 'x'), 409],
    [new ServiceFault('NotImplemented', 'x'), 501],
    [new ServiceFault('InvalidRequest', 'x', 413), 413],
    [new ServiceFault('InvalidRequest', 'x', 415), 415],
    [new ServiceFault('Internal', 'x'), 500],
  ])('%s answers %i as text/plain "<Code>: <message>"', (f, status) => {
    const out = encodeHttpFault(f);
    expect(out).toEqual({
      status,
      contentType: 'text/plain; charset=utf-8',
      body: `${f.code}: ${f.code === 'Internal' ? 'Internal error' : 'x'}\n`,
    });
  });

  it('keep the message on one line', () => {
    expect(encodeHttpFault(new ServiceFault('Conflict', 'full\r\nSet-Cookie: x')).body).toBe(
      'Conflict: full Set-Cookie: x\n',
    );
  });
});

describe('parseFault (client side)', () => {
  it.each(FAULT_CODES.map((c) => [c]))('reads %s back from all three forms', (code) => {
    const sf = new ServiceFault(code, 'because & why');
    const msg = code === 'Internal' ? 'Internal error' : 'because & why';
    const s11 = encodeSoapFault('1.1', sf, NS);
    expect(parseFault('soap11', s11.status, s11.contentType, bytes(s11.body))).toMatchObject({
      code,
      faultString: msg,
      httpStatus: 500,
      binding: 'soap11',
      soapFaultCode: spec.get(code)?.soap11,
    });
    const s12 = encodeSoapFault('1.2', sf, NS);
    expect(parseFault('soap12', s12.status, s12.contentType, bytes(s12.body))).toMatchObject({
      code,
      faultString: msg,
      soapFaultCode: spec.get(code)?.soap12,
    });
    const http = encodeHttpFault(sf);
    expect(parseFault('httpGet', http.status, http.contentType, bytes(http.body))).toMatchObject({
      code,
      faultString: msg,
      httpStatus: http.status,
      binding: 'httpGet',
    });
    expect(spec.get(code)?.httpStatuses).toContain(http.status);
  });

  it('returns undefined for answers that are not faults, and Unknown for a foreign code', () => {
    expect(
      parseFault('soap11', 502, 'text/html', bytes('<html>bad gateway</html>')),
    ).toBeUndefined();
    expect(parseFault('soap11', 500, 'text/xml', bytes('not xml'))).toBeUndefined();
    expect(parseFault('httpPost', 500, 'text/plain', bytes('Oops: went wrong\n'))).toMatchObject({
      code: 'Unknown',
      faultString: 'went wrong',
    });
  });
});
