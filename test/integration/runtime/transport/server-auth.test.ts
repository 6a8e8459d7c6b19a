// Every authentication refusal over every binding, through real HTTP: the fault code and status,
// and the handler never called.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Binding } from '@evgen/runtime';
import { parseFault } from '@evgen/runtime/internal';
import { WIRE } from '@evgen/event-management/service';
import {
  ENDPOINT,
  KEY,
  authHeaderXml,
  authValues,
  echoBody,
  freshTimestamp,
  credentialHeaders,
  sign,
  send,
  soapEnvelope,
  sendSoap,
  startServer,
  type AuthFields,
  type Harness,
  type RawResponse,
} from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startServer();
});
afterAll(() => h.server.close());
beforeEach(() => {
  h.calls.length = 0;
});

type Values = Partial<AuthFields> | undefined;
const query = 'count=7&text=hi';

function call(binding: Binding, v: Values, extra = ''): Promise<RawResponse> {
  switch (binding) {
    case 'soap11':
      return sendSoap(h, '1.1', 'Echo', echoBody(h.ns), v);
    case 'soap12':
      return sendSoap(h, '1.2', 'Echo', echoBody(h.ns), v);
    case 'httpGet':
      return send(`${h.url}${ENDPOINT}/Echo?${query}${extra}`, {
        headers: credentialHeaders(v ?? {}),
      });
    case 'httpPost':
      return send(`${h.url}${ENDPOINT}/Echo`, {
        method: 'POST',
        headers: {
          ...credentialHeaders(v ?? {}),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: query + extra,
      });
    default:
      throw new Error(`no raw request for binding ${binding}`);
  }
}

const refusal = WIRE.faults.codes.find((c) => c.code === WIRE.faults.raisedFor.authentication)!;
const soapStatus: Record<Binding, number> = {
  soap11: refusal.soap11Status,
  soap12: refusal.soap12Status,
};
const decode = (binding: Binding, r: RawResponse) =>
  parseFault(binding, r.status, r.type, new TextEncoder().encode(r.text), WIRE.faults);

function expectRefused(
  binding: Binding,
  r: RawResponse,
  httpStatus: number,
  code = 'AuthenticationFailed',
) {
  expect(r.status).toBe(soapStatus[binding] ?? httpStatus);
  expect(decode(binding, r)?.code).toBe(code);
  expect(h.calls).toEqual([]);
  expect(r.text).not.toContain(KEY.secret);
}

const signedAt = (ts: string, over: Partial<AuthFields> = {}) =>
  authValues('Echo', { Timestamp: ts, Signature: sign('Echo', ts), ...over });

const REFUSALS: [string, () => Values, number, RegExp][] = [
  [
    'a wrong signature',
    () => authValues('Echo', { Signature: sign('Echo', freshTimestamp(), 'not-the-secret') }),
    403,
    /signature/,
  ],
  [
    'a signature over another operation',
    () => {
      const ts = freshTimestamp();
      return signedAt(ts, { Signature: sign('Forget', ts) });
    },
    403,
    /signature/,
  ],
  [
    'an unknown API key',
    () => authValues('Echo', { APIKey: 'nobody' }),
    403,
    /invalid API key or signature/,
  ],
  ['a stale timestamp', () => signedAt(freshTimestamp(-301_000)), 403, /older than 300 seconds/],
  ['a future timestamp', () => signedAt(freshTimestamp(301_000)), 403, /in the future/],
  [
    'a timestamp without milliseconds',
    () => signedAt(freshTimestamp().replace(/\.\d{3}Z$/, 'Z')),
    403,
    /yyyy-MM-ddTHH:mm:ss.fffZ/,
  ],
  [
    'a timestamp with a space',
    () => signedAt(freshTimestamp().replace('T', ' ')),
    403,
    /yyyy-MM-ddTHH:mm:ss.fffZ/,
  ],
  [
    'an Operation naming another operation',
    () => {
      const ts = freshTimestamp();
      return authValues('Forget', { Timestamp: ts, Signature: sign('Forget', ts) });
    },
    403,
    /does not name the operation/,
  ],
  ['no credentials at all', () => undefined, 401, /missing/],
  ['no Signature', () => authValues('Echo', { Signature: undefined }), 401, /Signature/],
  ['no APIKey', () => authValues('Echo', { APIKey: undefined }), 401, /APIKey/],
  ['no Timestamp', () => authValues('Echo', { Timestamp: undefined }), 401, /Timestamp/],
];

describe.each(['soap11', 'soap12', 'httpGet', 'httpPost'] as const)('%s', (binding) => {
  it('accepts a correctly signed call', async () => {
    const r = await call(binding, authValues('Echo'));
    expect(r.status).toBe(200);
    expect(h.calls).toEqual(['echo']);
  });

  it.each(REFUSALS)('refuses %s', async (_, values, status, message) => {
    const r = await call(binding, values());
    expectRefused(binding, r, status);
    expect(decode(binding, r)?.faultString).toMatch(message);
  });

  it('refuses a replay of an accepted call', async () => {
    const v = authValues('Echo');
    expect((await call(binding, v)).status).toBe(200);
    h.calls.length = 0;
    const again = await call(binding, v);
    expectRefused(binding, again, 403);
    expect(decode(binding, again)?.faultString).toMatch(/replayed/);
  });

  it('logs the key name, never the signature', async () => {
    const v = authValues('Echo');
    await call(binding, v);
    const last = h.logs.at(-1)!;
    expect(last).toMatchObject({
      operation: 'Echo',
      binding,
      status: 200,
      apiKeyName: KEY.name,
      faultCode: undefined,
    });
    expect(JSON.stringify(last)).not.toContain(v.Signature!);
  });
});

describe.each(['httpGet', 'httpPost'] as const)('%s credentials', (binding) => {
  it.each(['APIKey', 'apikey', 'Signature', 'TIMESTAMP'])(
    'refuses a parameter named %s with InvalidRequest (400)',
    async (name) => {
      const r = await call(binding, authValues('Echo'), `&${name}=x`);
      expect(r.status).toBe(400);
      expect(decode(binding, r)?.code).toBe('InvalidRequest');
      expect(h.calls).toEqual([]);
    },
  );

  it('refuses credentials in the query string of a POST too', async () => {
    const r = await send(`${h.url}${ENDPOINT}/Echo?signature=x`, {
      method: 'POST',
      headers: {
        ...credentialHeaders(authValues('Echo')),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: query,
    });
    expect([r.status, h.calls]).toEqual([400, []]);
  });

  it('accepts a call without the optional Operation header', async () => {
    const r = await call(binding, authValues('Echo', { Operation: undefined }));
    expect([r.status, h.calls]).toEqual([200, ['echo']]);
  });
});

describe('SOAP header shape', () => {
  it.each(['1.1', '1.2'] as const)(
    'SOAP %s: refuses an AuthenticationHeader in another namespace (401)',
    async (v) => {
      const r = await send(`${h.url}${ENDPOINT}`, {
        method: 'POST',
        headers:
          v === '1.1'
            ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${h.ns}Echo"` }
            : { 'content-type': 'application/soap+xml; charset=utf-8' },
        body: soapEnvelope(v, authHeaderXml('urn:other', authValues('Echo')), echoBody(h.ns)),
      });
      expect(decode(v === '1.1' ? 'soap11' : 'soap12', r)?.code).toBe('AuthenticationFailed');
      expect(h.calls).toEqual([]);
    },
  );
});

describe('clock and replay options', () => {
  it('honours clockSkewSeconds and an injected clock; replay protection can be turned off', async () => {
    const fixed = Date.UTC(2030, 0, 1);
    const s = await startServer({}, { clockSkewSeconds: 5, now: () => fixed, replayStore: false });
    try {
      const at = (ms: number) => {
        const ts = new Date(fixed + ms).toISOString();
        return credentialHeaders(
          authValues('Echo', { Timestamp: ts, Signature: sign('Echo', ts) }),
        );
      };
      const get = (headers: Record<string, string>) =>
        send(`${s.url}${ENDPOINT}/Echo?${query}`, { headers });
      expect((await get(at(4_000))).status).toBe(200);
      expect((await get(at(-6_000))).status).toBe(403);
      const same = at(0);
      expect((await get(same)).status).toBe(200);
      expect((await get(same)).status).toBe(200); // replayStore: false
    } finally {
      await s.server.close();
    }
  });
});
