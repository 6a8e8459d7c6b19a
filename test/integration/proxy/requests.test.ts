// Malformed requests of a client are reported as request findings, each naming its check, level
// and path (and, for a signature, what was signed, never the secret or a signature); the
// reference service behind refuses each in the form its fault table gives, so no finding is about
// its answer. Real HTTP: a reference service, the proxy before it, requests sent through it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthValues } from '@evgen/runtime';
import { namespaceFor, signRequest } from '@evgen/runtime/internal';
import { SERVICE } from '@evgen/event-management/service';
import type { Finding } from '../../../src/proxy/finding.js';
import { startReference, type Reference } from '../reference/harness.js';
import {
  handMade,
  sendMade,
  signed,
  watch,
  type Given,
  type Sender,
  type Watched,
} from './harness.js';

let ref: Reference;
let w: Watched;
let ns: string;
const key = () => ref.svc.demoKey!;
let last = Date.now();
const stamp = (offsetMs = 0) =>
  new Date((last = Math.max(last + 1, Date.now())) + offsetMs).toISOString();

beforeAll(async () => {
  ref = await startReference({ events: 2, bookings: 10 }, { workers: 0 });
  w = await watch(ref.svc.server.url, {
    level: 'evgen',
    secrets: (k) => Promise.resolve(k === key().apiKey ? key().secretKey : undefined),
  });
  ns = namespaceFor(w.proxy.url, SERVICE.namespace);
});
afterAll(async () => {
  await w.proxy.close();
  await ref.stop();
});

const sender = (): Sender => ({
  base: w.proxy.url,
  key: key(),
  ns,
  operation: 'GetBookingDetails',
  params: { bookingId: 1 },
  stamp,
});
const request = (g: Given) => handMade(sender(), g);
const signedWith =
  (o: { timestamp?: string; operation?: string }) =>
  (v: AuthValues): Promise<AuthValues> =>
    signed({ ...o, secret: key().secretKey })(v);

/** Sends it through the proxy; the findings it caused once the proxy has checked it. */
async function findingsOf(g: Given): Promise<Finding[]> {
  const before = w.findings.length;
  await sendMade(await request(g));
  await w.proxy.idle(); // checks run once the answer is out
  return w.findings.slice(before);
}

const cases: { name: string; given: Given; want: Record<string, unknown> & { check: string } }[] = [
  {
    name: 'wrong namespace',
    given: { change: (r) => (r.body = r.body.split(ns).join('http://tempuri.org/')) },
    want: {
      check: 'namespace',
      path: 'GetBookingDetails',
      found: 'http://tempuri.org/',
      level: 'document',
    },
  },
  {
    name: 'malformed XML',
    given: { change: (r) => (r.body = '<soap:Envelope') },
    want: { check: 'envelope', path: '', expected: 'a SOAP envelope', level: 'document' },
  },
  {
    name: 'a SOAP 1.2 envelope sent as SOAP 1.1',
    given: {
      binding: 'soap12',
      change: (r) => {
        r.headers['content-type'] = 'text/xml; charset=utf-8';
        r.headers.soapaction = `"${ns}GetBookingDetails"`;
      },
    },
    want: { check: 'envelope', path: 'Envelope', found: 'a SOAP 1.2 envelope' },
  },
  {
    name: 'missing parameter',
    given: { change: (r) => (r.body = r.body.replace(/<bookingId>1<\/bookingId>/, '')) },
    want: {
      check: 'parameters',
      path: 'GetBookingDetails/bookingId',
      expected: 'an element',
      found: 'nothing',
    },
  },
  {
    name: 'parameter of the wrong type (HTTP GET)',
    given: {
      binding: 'httpGet',
      change: (r) => (r.url = r.url.replace('bookingId=1', 'bookingId=one')),
    },
    want: { check: 'parameters', path: 'bookingId', expected: 'int', found: '"one"' },
  },
  {
    name: 'wrong SOAPAction (SOAP 1.1)',
    given: {
      change: (r) =>
        (r.headers.soapaction = r.headers.soapaction!.replace('GetBookingDetails', 'GetBooking')),
    },
    want: {
      check: 'SOAPAction',
      path: 'SOAPAction header',
      expected: expect.stringMatching(
        /^"https:\/\/127\.0\.0\.1:\d+\/API\/1_0\/SOAP\/GetBookingDetails"$/,
      ),
      found: expect.stringMatching(/\/GetBooking"$/),
    },
  },
  {
    name: 'no SOAPAction (SOAP 1.1)',
    given: { change: (r) => delete r.headers.soapaction },
    want: { check: 'SOAPAction', path: 'SOAPAction header', found: 'nothing' },
  },
  {
    name: 'wrong action (SOAP 1.2)',
    given: {
      binding: 'soap12',
      change: (r) =>
        (r.headers['content-type'] = r.headers['content-type']!.replace(
          'GetBookingDetails',
          'GetBooking',
        )),
    },
    want: { check: 'SOAPAction', path: 'Content-Type action' },
  },
  {
    name: 'bad timestamp format (signed)',
    given: { auth: signedWith({ timestamp: stamp().replace('T', ' ') }) },
    want: { check: 'Timestamp format', path: 'AuthenticationHeader/Timestamp', level: 'document' },
  },
  {
    name: 'bad timestamp format, HTTP GET (signed)',
    given: { binding: 'httpGet', auth: signedWith({ timestamp: stamp().slice(0, 19) }) },
    // HTTP credentials are a gap decision: the check is held at level evgen there.
    want: {
      check: 'Timestamp format',
      path: 'header Timestamp',
      level: 'evgen',
      source: 'gap:http-credentials',
    },
  },
  {
    name: 'stale timestamp (signed)',
    given: { auth: signedWith({ timestamp: stamp(-3_600_000) }) },
    want: {
      check: 'clock offset',
      path: 'AuthenticationHeader/Timestamp',
      level: 'evgen',
      source: 'gap:timestamp-window',
    },
  },
  {
    name: 'Operation naming another operation (signed)',
    given: { auth: signedWith({ operation: 'GetBooking' }) },
    want: {
      check: 'Operation header',
      path: 'AuthenticationHeader/Operation',
      expected: '"GetBookingDetails"',
      found: '"GetBooking"',
    },
  },
  {
    name: 'no AuthenticationHeader',
    given: { change: (r) => (r.body = r.body.replace(/<soap:Header>[\s\S]*<\/soap:Header>/, '')) },
    want: { check: 'AuthenticationHeader', path: 'Header/AuthenticationHeader', found: 'nothing' },
  },
  {
    name: 'credentials in the query (HTTP GET)',
    given: { binding: 'httpGet', change: (r) => (r.url += `&APIKey=${key().apiKey}`) },
    want: {
      check: 'credential headers',
      path: 'query parameter APIKey',
      level: 'evgen',
      source: 'gap:http-credentials',
    },
  },
  {
    name: 'no credential headers (HTTP POST)',
    given: {
      binding: 'httpPost',
      change: (r) => (delete r.headers.Signature, delete r.headers.APIKey),
    },
    want: {
      check: 'credential headers',
      path: 'header APIKey, header Signature',
      found: 'no APIKey, Signature',
    },
  },
  {
    name: 'wrong content type (HTTP POST)',
    given: { binding: 'httpPost', change: (r) => (r.headers['content-type'] = 'text/plain') },
    want: {
      check: 'content type',
      expected: '"application/x-www-form-urlencoded"',
      found: '"text/plain"',
    },
  },
  {
    name: 'an operation the interface does not have',
    given: {
      change: (r) => {
        r.body = r.body
          .replace(/GetBookingDetails>/g, 'GetNothing>')
          .replace('<GetBookingDetails ', '<GetNothing ');
        r.headers.soapaction = `"${ns}GetNothing"`;
      },
    },
    want: {
      check: 'operation',
      path: 'Body/GetNothing',
      expected: 'an operation of the interface',
    },
  },
  {
    name: 'a method no binding has',
    given: { method: 'PUT' },
    want: {
      check: 'binding',
      expected: expect.stringContaining(
        'POST /API/1_0/SOAP/ServiceAPI.asmx with text/xml',
      ) as string,
    },
  },
];

describe('malformed client requests are request findings', () => {
  it.each(cases)('$name → $want.check', async ({ given, want }) => {
    const found = await findingsOf(given);
    const requests = found.filter((f) => f.direction === 'request');
    expect(requests, JSON.stringify(found, null, 1)).toContainEqual(
      expect.objectContaining({ direction: 'request', ...want }),
    );
    // The reference service refuses it as its fault table says: nothing about the answer.
    expect(
      found.filter((f) => f.direction === 'response'),
      JSON.stringify(found, null, 1),
    ).toEqual([]);
  });

  it('a request sent twice is a replay, the second time (evgen)', async () => {
    const r = await request({});
    const before = w.findings.length;
    await sendMade(r);
    await sendMade(r);
    await w.proxy.idle();
    expect(w.findings.slice(before)).toEqual([
      expect.objectContaining({
        direction: 'request',
        check: 'replay',
        path: 'AuthenticationHeader/Timestamp',
        level: 'evgen',
      }),
    ]);
  });
});

describe('a signature that does not verify is explained', () => {
  const mistakes: { name: string; auth: Given['auth']; hint: RegExp }[] = [
    {
      name: 'a secret read with its newline',
      auth: async (v) => ({
        ...v,
        Signature: await signRequest(`${key().secretKey}\n`, v.Operation, v.Timestamp),
      }),
      hint: /with the secret followed by a line break/,
    },
    {
      name: 'the wrong secret',
      auth: async (v) => ({
        ...v,
        Signature: await signRequest('another-secret', v.Operation, v.Timestamp),
      }),
      hint: /none of the usual mistakes explains it/,
    },
  ];
  it.each(mistakes)('$name', async ({ auth, hint }) => {
    const found = await findingsOf({ auth });
    const f = found.find((x) => x.check === 'signature');
    expect(f, JSON.stringify(found)).toBeDefined();
    expect(f!.message).toMatch(
      /^the Signature does not verify with the secret of API key ak_\w+: signed Operation "GetBookingDetails" and Timestamp "[^"]+", the string "GetBookingDetails\d{4}-[^"]+" \(HMAC-SHA1 keyed with the UTF-8 secret, base64\); clock offset [+-]\d+\.\d{3} s;/,
    );
    expect(f!.message).toMatch(hint);
    expect(f!.message).not.toContain(key().secretKey);
  });
});

describe('at level document', () => {
  it("reports what breaks the document's rules, not what breaks only our decisions", async () => {
    const doc = await watch(ref.svc.server.url, { level: 'document' });
    try {
      const docNs = namespaceFor(doc.proxy.url, SERVICE.namespace);
      const at = (g: Given) => handMade({ ...sender(), base: doc.proxy.url, ns: docNs }, g);
      await sendMade(await at({ auth: signedWith({ timestamp: stamp(-3_600_000) }) }));
      await sendMade(await at({ binding: 'httpGet', auth: signedWith({ timestamp: 'x' }) }));
      await doc.proxy.idle();
      expect(doc.findings, JSON.stringify(doc.findings, null, 1)).toEqual([]);
      await sendMade(
        await at({ change: (r) => (r.body = r.body.split(docNs).join('http://tempuri.org/')) }),
      );
      await doc.proxy.idle();
      expect(doc.findings).toEqual([
        expect.objectContaining({ direction: 'request', check: 'namespace', level: 'document' }),
      ]);
    } finally {
      await doc.proxy.close();
    }
  });
});
