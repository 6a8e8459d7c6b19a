// Every edge refuses what it should, on every binding it applies to; each reproduced first on
// the service that answered it: a SOAP Body before its Header (answered 200), a body with a
// Content-Encoding the service does not decode (read as plain), a search filter with an impossible
// date (from:2026-02-30 listed events), and fault texts echoing whole inputs back (a 1 MB e-mail
// address came back in the NotFound text).
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { BINDING_IDS, WIRE, type BindingId } from '@evgen/event-management/service';
import {
  ENDPOINT,
  SOAP_ENV,
  authHeaderXml,
  credentialHeaders,
  freshTimestamp,
  post,
  sign,
  soapNamespaceOf,
  type SoapVersion,
} from '../../support/requests.js';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
let ns: string;
beforeAll(async () => {
  ref = await startReference({ events: 6, bookings: 20 });
  ns = soapNamespaceOf(ref.svc.server.url);
});
afterAll(() => ref.stop());

const SOAP_BINDINGS = WIRE.bindings.filter((b) => b.kind === 'soap');
/** The fault code each SOAP version gives the client's errors. */
const CLIENT_CODE: Record<SoapVersion, RegExp> = { '1.1': /:Client$/, '1.2': /:Sender$/ };

let tick = 0;
const credentials = (op: string) => {
  const Timestamp = freshTimestamp(tick++);
  const { apiKey, secretKey } = ref.svc.demoKey!;
  return { Timestamp, Operation: op, Signature: sign(op, Timestamp, secretKey), APIKey: apiKey };
};

/** A client of the demo key on `binding`; `headers` are added to every request it sends. */
const client = (binding: BindingId, headers: Record<string, string> = {}) =>
  new EventServiceClient({
    baseUrl: ref.svc.server.url,
    ...ref.svc.demoKey!,
    binding,
    onRequest: (r) => void Object.assign(r.headers, headers),
  });

/** The error a call failed with (the test fails if it succeeded). */
async function refusal(call: Promise<unknown>): Promise<ServiceError> {
  const e = await call.then(
    () => new Error('answered 200'),
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}

describe.each(SOAP_BINDINGS)('$title: the envelope', (binding) => {
  const version = binding.soapVersion;
  const OP = 'GetEventDetails7';
  const envelope = (inner: string) =>
    `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${SOAP_ENV[version]}">${inner}</s:Envelope>`;
  const send = (inner: string) =>
    post(`${ref.svc.server.url}${ENDPOINT}`, envelope(inner), {
      'content-type':
        version === '1.1'
          ? binding.requestContentType
          : `${binding.requestContentType}; action="${ns}${OP}"`,
      ...(version === '1.1' ? { soapaction: `"${ns}${OP}"` } : {}),
    });
  const header = () => `<s:Header>${authHeaderXml(ns, credentials(OP))}</s:Header>`;
  const body = () => `<s:Body><${OP} xmlns="${ns}"><eventId>1</eventId></${OP}></s:Body>`;

  it('refuses a Header after the Body with a fault of the client', async () => {
    const res = await send(body() + header());
    expect(res.status).toBe(version === '1.1' ? 500 : 400);
    expect(res.text).toMatch(CLIENT_CODE[version].source.replace('$', '<'));
    expect(res.text).toContain('InvalidRequest');
    expect(res.text).toContain('the SOAP Header must come before the Body');
  });

  it('answers the same envelope in order', async () => {
    const res = await send(header() + body());
    expect(res.status, res.text).toBe(200);
  });
});

describe.each(BINDING_IDS)('%s: a Content-Encoding it does not decode', (binding) => {
  it.each(['gzip', 'deflate', 'br', 'x-unknown'])(
    'refuses %s with 415, saying which coding it takes',
    async (coding) => {
      const e = await refusal(
        client(binding, { 'content-encoding': coding }).getEventDetails7({ eventId: 1 }),
      );
      expect(e).toMatchObject({ code: 'InvalidRequest', httpStatus: 415 });
      expect(e.faultString).toBe(
        `Content-Encoding ${coding} is not accepted: send the body as it is (identity)`,
      );
    },
  );

  it('answers with identity, as with none', async () => {
    const got = await client(binding, { 'content-encoding': 'identity' }).getEventDetails7({
      eventId: 1,
    });
    expect(got?.EventId).toBe(1);
  });
});

describe('a gzip body', () => {
  it('is refused with 415 and Accept-Encoding: identity, not read as plain XML', async () => {
    const OP = 'GetEventDetails7';
    const xml = `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${SOAP_ENV['1.1']}"><s:Header>${authHeaderXml(ns, credentials(OP))}</s:Header><s:Body><${OP} xmlns="${ns}"><eventId>1</eventId></${OP}></s:Body></s:Envelope>`;
    const res = await fetch(`${ref.svc.server.url}${ENDPOINT}`, {
      method: 'POST',
      headers: {
        'content-type': 'text/xml; charset=utf-8',
        soapaction: `"${ns}${OP}"`,
        'content-encoding': 'gzip',
      },
      body: gzipSync(xml),
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-encoding')).toBe('identity');
    expect(await res.text()).toContain('Content-Encoding gzip is not accepted');
  });
});

describe.each(BINDING_IDS)('%s: EventProfileSearch filter dates', (binding) => {
  it.each([
    { term: 'from:2026-02-30', why: 'a day February does not have' },
    { term: 'to:2026-13-01', why: 'month 13' },
    { term: 'from:2025-02-29', why: 'February 29 of a common year' },
    { term: 'to:2026-04-31', why: 'April 31' },
    { term: 'from:0000-01-01', why: 'year 0' },
  ])('refuses $term ($why) with InvalidParameter naming the term', async ({ term }) => {
    const [field, value] = term.split(':');
    const e = await refusal(client(binding).eventProfileSearch({ searchQuery: `music ${term}` }));
    expect(e.code).toBe('InvalidParameter');
    expect(e.faultString).toBe(`searchQuery: ${field}: expects a date yyyy-MM-dd, got "${value}"`);
  });

  it('takes a real date, February 29 of a leap year included', async () => {
    const found = await client(binding).eventProfileSearch({
      searchQuery: 'from:2024-02-29 to:2030-12-31',
    });
    expect(found?.Events?.length).toBeGreaterThan(0);
  });
});

/** How long a fault text may be, whatever was sent. */
const MAX_TEXT = 1_000;

describe.each(BINDING_IDS)('%s: fault texts', (binding) => {
  const long = `${'a'.repeat(9_980)}@example.com`; // within any binding's limits, the URL's too

  it('cut an e-mail address echoed in NotFound, saying how long it was', async () => {
    const e = await refusal(client(binding).getContact({ email: long }));
    expect(e.code).toBe('NotFound');
    expect(e.faultString.length).toBeLessThanOrEqual(MAX_TEXT);
    expect(e.faultString).toMatch(/^contact "a{20,}…" \(9992 characters\) does not exist$/);
  });

  it('cut a parameter value that is not of its type', async () => {
    // The typed client writes only valid values: a raw request sends the bad one.
    const op = 'GetEventDetails7';
    const bad = '9'.repeat(10_000);
    const res =
      binding === 'httpGet' || binding === 'httpPost'
        ? await fetch(
            `${ref.svc.server.url}${ENDPOINT}/${op}${binding === 'httpGet' ? `?eventId=${bad}` : ''}`,
            {
              method: binding === 'httpGet' ? 'GET' : 'POST',
              headers: {
                ...credentialHeaders(credentials(op)),
                ...(binding === 'httpPost'
                  ? { 'content-type': 'application/x-www-form-urlencoded' }
                  : {}),
              },
              ...(binding === 'httpPost' ? { body: `eventId=${bad}` } : {}),
            },
          )
        : await soapCall(binding, op, `<eventId>${bad}</eventId>`);
    const text = await res.text();
    expect(text).toContain('InvalidParameter');
    expect(text).toContain('(10000 characters)');
    expect(text.length).toBeLessThan(MAX_TEXT + 600); // the envelope around it
  });

  it('cut an Operation value that names no operation called', async () => {
    const op = 'GetEventDetails7';
    const named = 'X'.repeat(10_000);
    if (!binding.startsWith('http')) {
      const v = { ...credentials(op), Operation: named };
      const res = await soapCall(binding, op, '<eventId>1</eventId>', v);
      const text = await res.text();
      expect(text).toContain('AuthenticationFailed');
      expect(text).toContain('(10000 characters)');
      expect(text.length).toBeLessThan(MAX_TEXT + 600);
    } else {
      const res = await fetch(`${ref.svc.server.url}${ENDPOINT}/${op}?eventId=1`, {
        method: binding === 'httpGet' ? 'GET' : 'POST',
        headers: {
          ...credentialHeaders(credentials(op)),
          Operation: named,
          ...(binding === 'httpPost'
            ? { 'content-type': 'application/x-www-form-urlencoded' }
            : {}),
        },
      });
      const text = await res.text();
      expect(text).toMatch(/^AuthenticationFailed: /);
      expect(text).toContain('(10000 characters)');
      expect(text.length).toBeLessThan(MAX_TEXT);
    }
  });
});

/** A SOAP call of `binding` with `params` inside the operation element, signed (or with `auth`). */
function soapCall(
  binding: BindingId,
  op: string,
  params: string,
  auth: ReturnType<typeof credentials> = credentials(op),
) {
  const def = WIRE.bindings.find((b) => b.id === binding)!;
  const version = def.soapVersion!;
  const xml = `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${SOAP_ENV[version]}"><s:Header>${authHeaderXml(ns, auth)}</s:Header><s:Body><${op} xmlns="${ns}">${params}</${op}></s:Body></s:Envelope>`;
  return fetch(`${ref.svc.server.url}${ENDPOINT}`, {
    method: 'POST',
    headers:
      version === '1.1'
        ? { 'content-type': def.requestContentType!, soapaction: `"${ns}${op}"` }
        : { 'content-type': `${def.requestContentType!}; action="${ns}${op}"` },
    body: xml,
  });
}
