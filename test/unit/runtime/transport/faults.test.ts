// Fault encoding in the three forms, read back element by element (by namespace, never by prefix),
// and the client's decoding of each form. Everything comes from the fault table the engine is
// given: a table unlike the spec's shows that nothing is hard-coded; the spec's own table
// (generated from spec/errors.yaml) is read back for every code.
import { describe, expect, it } from 'vitest';
import { ServiceFault, type BindingDef, type FaultTable, type XmlElement } from '@evgen/runtime';
import {
  EngineFault,
  MAX_FAULT_TEXT,
  QUOTED_INPUT_CHARS,
  SOAP11_NS,
  SOAP12_NS,
  cutInput,
  encodeHttpFault,
  encodeSoapFault,
  parseFault,
  quoteInput,
  parseSoapEnvelope,
  resolveFault,
} from '@evgen/runtime/internal';
import { WIRE } from '@evgen/event-management/service';

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
const binding = (soapVersion: '1.1' | '1.2' | null, responseContentType: string): BindingDef => ({
  id: `b${soapVersion}`,
  title: 'test',
  kind: soapVersion ? 'soap' : 'http',
  soapVersion,
  method: 'POST',
  path: '{endpoint}',
  requestContentType: responseContentType,
  responseContentType,
  soapAction: null,
});

/** A table with nothing in common with the spec's but its shape. */
const TABLE: FaultTable = {
  detailElement: 'Reason',
  httpContentType: 'text/x-fault; charset=utf-8',
  transportStatuses: [413],
  raisedFor: {
    authentication: 'Who',
    request: 'Bad',
    parameter: 'Bad',
    notImplemented: 'Later',
    internal: 'Oops',
  },
  codes: [
    {
      code: 'Who',
      soap11: 'soap:Client',
      soap12: 'soap12:Sender',
      soap11Status: 418,
      soap12Status: 419,
      httpStatuses: [451, 401],
      message: null,
      retryAfterSeconds: null,
    },
    {
      code: 'Bad',
      soap11: 'soap:Client',
      soap12: 'soap12:Sender',
      soap11Status: 422,
      soap12Status: 423,
      httpStatuses: [422, 413],
      message: null,
      retryAfterSeconds: null,
    },
    {
      code: 'Later',
      soap11: 'soap:Server',
      soap12: 'soap12:Receiver',
      soap11Status: 597,
      soap12Status: 596,
      httpStatuses: [505],
      message: null,
      retryAfterSeconds: null,
    },
    {
      code: 'Oops',
      soap11: 'soap:Server',
      soap12: 'soap12:Receiver',
      soap11Status: 599,
      soap12Status: 598,
      httpStatuses: [503],
      message: 'Sorry',
      retryAfterSeconds: 9,
    },
  ],
};
const S11 = binding('1.1', 'text/x-soap11');
const S12 = binding('1.2', 'application/x-soap12');

/** Whatever is not a fault of the table, and the internal code itself, ends here. */
const OOPS = {
  code: 'Oops',
  message: 'Sorry',
  soap11: 599,
  soap12: 598,
  http: 503,
  retryAfter: '9',
};

describe('faults from a fault table', () => {
  const cases: {
    given: unknown;
    want: {
      code: string;
      message: string;
      soap11: number;
      soap12: number;
      http: number;
      retryAfter?: string;
    };
  }[] = [
    {
      given: new ServiceFault('Who', 'no key'),
      want: { code: 'Who', message: 'no key', soap11: 418, soap12: 419, http: 451 },
    },
    {
      given: new ServiceFault('Who', 'no key', 401),
      want: { code: 'Who', message: 'no key', soap11: 418, soap12: 419, http: 401 },
    },
    {
      given: new ServiceFault('Who', 'x', 404),
      want: { code: 'Who', message: 'x', soap11: 418, soap12: 419, http: 451 },
    },
    {
      given: new EngineFault('parameter', 'count: expected int'),
      want: { code: 'Bad', message: 'count: expected int', soap11: 422, soap12: 423, http: 422 },
    },
    {
      given: new EngineFault('request', 'too big', 413),
      want: { code: 'Bad', message: 'too big', soap11: 413, soap12: 413, http: 413 },
    },
    {
      given: new EngineFault('notImplemented', 'GetThing is not implemented by this server'),
      want: {
        code: 'Later',
        message: 'GetThing is not implemented by this server',
        soap11: 597,
        soap12: 596,
        http: 505,
      },
    },
    {
      given: new ServiceFault('Oops', 'SQLITE_ERROR: no such table'),
      want: OOPS,
    },
    {
      given: new ServiceFault('NoSuchCode', 'x'),
      want: OOPS,
    },
    {
      given: new TypeError('secret detail'),
      want: OOPS,
    },
  ];
  for (const { given, want } of cases)
    it(`${String(given)} → ${want.code} ${want.soap11}/${want.soap12}/${want.http}`, () => {
      const r = resolveFault(given, TABLE);
      const s11 = encodeSoapFault(S11, r, NS, TABLE);
      // Retry-After, where the code has one, on every binding.
      const retry = want.retryAfter === undefined ? {} : { 'retry-after': want.retryAfter };
      expect([s11.status, s11.headers]).toEqual([
        want.soap11,
        { 'content-type': 'text/x-soap11', ...retry },
      ]);
      const f11 = fault(s11.body);
      expect(f11.ns).toBe(SOAP11_NS);
      expect(kid(f11, 'faultcode', '')?.text).toBe(
        TABLE.codes.find((c) => c.code === want.code)!.soap11,
      );
      expect(kid(f11, 'faultstring', '')?.text).toBe(want.message);
      expect(kid(kid(f11, 'detail', ''), 'Reason', NS)?.text).toBe(want.code);

      const s12 = encodeSoapFault(S12, r, NS, TABLE);
      expect([s12.status, s12.headers]).toEqual([
        want.soap12,
        { 'content-type': 'application/x-soap12', ...retry },
      ]);
      const f12 = fault(s12.body);
      expect(f12.ns).toBe(SOAP12_NS);
      const text = kid(kid(f12, 'Reason', SOAP12_NS), 'Text', SOAP12_NS);
      expect(text?.attributes[`{${XML_NS}}lang`]).toBe('en');
      expect(text?.text).toBe(want.message);
      expect(kid(kid(f12, 'Detail', SOAP12_NS), 'Reason', NS)?.text).toBe(want.code);

      expect(encodeHttpFault(r, TABLE)).toEqual({
        status: want.http,
        headers: { 'content-type': 'text/x-fault; charset=utf-8', ...retry },
        body: `${want.code}: ${want.message}\n`,
      });
    });

  it('keep the HTTP message on one line', () => {
    const r = resolveFault(new ServiceFault('Bad', 'full\r\nSet-Cookie: x'), TABLE);
    expect(encodeHttpFault(r, TABLE).body).toBe('Bad: full Set-Cookie: x\n');
  });
});

describe('parseFault (client side)', () => {
  const table = WIRE.faults;
  const [soap11, soap12, http] = [
    WIRE.bindings.find((b) => b.soapVersion === '1.1')!,
    WIRE.bindings.find((b) => b.soapVersion === '1.2')!,
    WIRE.bindings.find((b) => b.kind === 'http')!,
  ];
  it.each(table.codes.map((c) => [c.code, c] as const))(
    'reads %s of spec/errors.yaml back from all three forms',
    (code, def) => {
      const r = resolveFault(new ServiceFault(code, 'because & why'), table);
      const msg = def.message ?? 'because & why';
      const s11 = encodeSoapFault(soap11, r, NS, table);
      expect(s11.status).toBe(def.soap11Status);
      expect(
        parseFault(soap11.id, s11.status, s11.headers['content-type']!, bytes(s11.body), table),
      ).toMatchObject({
        code,
        faultString: msg,
        httpStatus: def.soap11Status,
        binding: soap11.id,
        soapFaultCode: def.soap11,
      });
      const s12 = encodeSoapFault(soap12, r, NS, table);
      expect(s12.status).toBe(def.soap12Status);
      expect(
        parseFault(soap12.id, s12.status, s12.headers['content-type']!, bytes(s12.body), table),
      ).toMatchObject({
        code,
        faultString: msg,
        soapFaultCode: def.soap12,
      });
      const h = encodeHttpFault(r, table);
      expect(h.status).toBe(def.httpStatuses[0]);
      expect(
        parseFault(http.id, h.status, h.headers['content-type']!, bytes(h.body), table),
      ).toMatchObject({
        code,
        faultString: msg,
        httpStatus: h.status,
        binding: http.id,
      });
    },
  );

  it('returns undefined for answers that are not faults, and Unknown for a foreign code', () => {
    expect(
      parseFault('soap11', 502, 'text/html', bytes('<html>bad gateway</html>'), table),
    ).toBeUndefined();
    expect(parseFault('soap11', 500, 'text/xml', bytes('not xml'), table)).toBeUndefined();
    expect(
      parseFault('httpPost', 500, table.httpContentType, bytes('Oops: went wrong\n'), table),
    ).toMatchObject({
      code: 'Unknown',
      faultString: 'went wrong',
    });
  });

  it('reads the code from the detail element the table names', () => {
    const r = resolveFault(new ServiceFault('Who', 'no'), TABLE);
    const s11 = encodeSoapFault(S11, r, NS, TABLE);
    expect(
      parseFault('x', s11.status, s11.headers['content-type']!, bytes(s11.body), TABLE)?.code,
    ).toBe('Who');
    expect(
      parseFault('x', s11.status, s11.headers['content-type']!, bytes(s11.body), table)?.code,
    ).toBe('Unknown');
  });
});

describe('fault texts are bounded', () => {
  const table = WIRE.faults;
  const someCode = table.codes.find((c) => c.message === null)!.code;

  it(`cuts a handler's text past ${MAX_FAULT_TEXT} characters, whatever it echoes`, () => {
    const resolved = resolveFault(new ServiceFault(someCode, `x${'y'.repeat(1_000_000)}`), table);
    expect(resolved.message).toHaveLength(MAX_FAULT_TEXT);
    expect(resolved.message.endsWith('y…')).toBe(true);
    const soap = encodeSoapFault(WIRE.bindings[0], resolved, NS, table);
    expect(soap.body.length).toBeLessThan(MAX_FAULT_TEXT + 1_000);
    expect(encodeHttpFault(resolved, table).body.length).toBeLessThan(MAX_FAULT_TEXT + 100);
  });

  it.each([
    { given: 'a short value', value: 'abc', want: '"abc"' },
    {
      given: `${QUOTED_INPUT_CHARS} characters`,
      value: 'a'.repeat(QUOTED_INPUT_CHARS),
      want: `"${'a'.repeat(QUOTED_INPUT_CHARS)}"`,
    },
    {
      given: 'a long value',
      value: 'b'.repeat(1_000_000),
      want: `"${'b'.repeat(QUOTED_INPUT_CHARS)}…" (1000000 characters)`,
    },
  ])('quotes $given as a text shows it', ({ value, want }) => {
    expect(quoteInput(value)).toBe(want);
    expect(cutInput(value)).toBe(want.replace(/^"|"(?= \(|$)/g, ''));
  });

  it('carries the header fields an engine fault adds (Accept-Encoding with 415)', () => {
    const e = new EngineFault('request', 'coding', 415, { 'accept-encoding': 'identity' });
    const resolved = resolveFault(e, table);
    expect(encodeHttpFault(resolved, table).headers).toMatchObject({
      'accept-encoding': 'identity',
      'content-type': table.httpContentType,
    });
    const soap = encodeSoapFault(WIRE.bindings[0], resolved, NS, table);
    expect(soap).toMatchObject({ status: 415, headers: { 'accept-encoding': 'identity' } });
  });
});
