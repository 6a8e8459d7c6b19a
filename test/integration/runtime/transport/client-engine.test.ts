// The client engine against the server engine over real HTTP on every binding, the exact requests
// it builds, how answers become errors, time-outs, abort, and the retry policy.
import { describe, expect, it } from 'vitest';
import {
  ServiceError,
  ServiceFault,
  TransportError,
  type Binding,
  type ClientOptions,
} from '@evgen/runtime';
import { createTransport, xmlString } from '@evgen/runtime/internal';
import { WIRE } from '@evgen/event-management/service';
import { ENDPOINT, Echo, Forget, KEY, echoServerPerFile, fakeAuth } from './fixtures.js';

const file = echoServerPerFile();

const BINDINGS: Binding[] = WIRE.bindings.map((b) => b.id);
const transport = (o: Partial<ClientOptions> = {}) =>
  createTransport({
    baseUrl: file.h.url,
    apiKey: KEY.apiKey,
    secretKey: KEY.secret,
    auth: fakeAuth,
    wire: WIRE,
    namespace: file.h.ns,
    ...o,
  });

describe.each(BINDINGS)('%s end to end', (binding) => {
  it('calls Echo and decodes the result, text escaped both ways', async () => {
    const p = { count: -2147483648, text: `<a & "b"> 'c' ☃ 𝄞` };
    await expect(transport({ binding }).call(Echo, p)).resolves.toEqual(p);
    expect(file.h.calls).toEqual(['echo']);
  });

  it('calls an operation with no result', async () => {
    await expect(transport({ binding }).call(Forget, { ref: 'R-1' })).resolves.toBeUndefined();
    expect(file.h.calls).toEqual(['forget']);
  });

  it('signs concurrent calls with distinct timestamps, so none is refused as a replay', async () => {
    const t = transport({ binding });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.call(Echo, { count: i, text: 'x' })),
    );
    expect(results.map((r) => r.count)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('turns a fault into a ServiceError', async () => {
    file.behaviour = () => {
      throw new ServiceFault('NotFound', 'no such thing');
    };
    const e = await transport({ binding })
      .call(Echo, { count: 1, text: 'a' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServiceError);
    const def = WIRE.faults.codes.find((c) => c.code === 'NotFound')!;
    const version = WIRE.bindings.find((b) => b.id === binding)!.soapVersion;
    expect(e).toMatchObject({
      code: 'NotFound',
      faultString: 'no such thing',
      binding,
      httpStatus:
        version === '1.1'
          ? def.soap11Status
          : version === '1.2'
            ? def.soap12Status
            : def.httpStatuses[0],
      soapFaultCode: version === '1.1' ? def.soap11 : version === '1.2' ? def.soap12 : undefined,
    });
  });

  it('reports a wrong secret as AuthenticationFailed without calling the handler', async () => {
    await expect(
      transport({ binding, secretKey: 'wrong' }).call(Echo, { count: 1, text: 'a' }),
    ).rejects.toMatchObject({ code: 'AuthenticationFailed' });
    expect(file.h.calls).toEqual([]);
  });
});

/** What the client handed fetch, as text (it sends string bodies). */
const urlOf = (u: RequestInfo | URL) =>
  typeof u === 'string' ? u : u instanceof URL ? u.href : u.url;
const bodyText = (b: BodyInit | null | undefined) => (typeof b === 'string' ? b : '');

it('uses the per-call binding over the default', async () => {
  const seen: string[] = [];
  const t = transport({
    binding: 'soap11',
    fetch: (url, init) => (seen.push(`${init?.method} ${urlOf(url)}`), fetch(url, init)),
  });
  await t.call(Echo, { count: 1, text: 'a' }, { binding: 'httpGet' });
  expect(seen).toEqual([`GET ${file.h.url}${ENDPOINT}/Echo?count=1&text=a`]);
});

it('derives the namespace from the base URL with the https scheme when none is given', async () => {
  const seen: RequestInit[] = [];
  const t = createTransport({
    baseUrl: 'http://svc.example:8080/',
    apiKey: 'k',
    secretKey: 's',
    auth: fakeAuth,
    wire: WIRE,
    fetch: (_u, init) => (seen.push(init!), Promise.resolve(new Response('', { status: 503 }))),
  });
  await t.call(Echo, { count: 1, text: 'a' }).catch(() => undefined);
  expect((seen[0]!.headers as Record<string, string>).soapaction).toBe(
    '"https://svc.example:8080/API/1_0/SOAP/Echo"',
  );
});

describe('requests as built', () => {
  const capture = async (binding: Binding) => {
    const seen: { url: string; init: RequestInit }[] = [];
    const t = transport({
      binding,
      fetch: (url, init) => (seen.push({ url: urlOf(url), init: init! }), fetch(url, init)),
    });
    await t.call(Echo, { count: 5, text: 'a b' });
    return seen[0]!;
  };

  it('SOAP 1.1: POST text/xml with the quoted SOAPAction and the AuthenticationHeader', async () => {
    const { url, init } = await capture('soap11');
    expect([url, init.method]).toEqual([file.h.url + ENDPOINT, 'POST']);
    expect(init.headers).toEqual({
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"${file.h.ns}Echo"`,
    });
    expect(bodyText(init.body)).toMatch(
      /<soap:Header><AuthenticationHeader xmlns="[^"]+"><Timestamp>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z<\/Timestamp><Operation>Echo<\/Operation>/,
    );
  });

  it('SOAP 1.2: POST application/soap+xml with the action parameter', async () => {
    const { init } = await capture('soap12');
    expect(init.headers).toEqual({
      'content-type': `application/soap+xml; charset=utf-8; action="${file.h.ns}Echo"`,
    });
  });

  it.each(['httpGet', 'httpPost'] as const)(
    '%s: credentials only in headers, never the secret',
    async (binding) => {
      const { url, init } = await capture(binding);
      const headers = init.headers as Record<string, string>;
      expect(Object.keys(headers).sort()).toEqual(
        binding === 'httpGet'
          ? ['APIKey', 'Operation', 'Signature', 'Timestamp']
          : ['APIKey', 'Operation', 'Signature', 'Timestamp', 'content-type'],
      );
      expect(headers.Operation).toBe('Echo');
      if (binding === 'httpGet') expect(url).toBe(`${file.h.url}${ENDPOINT}/Echo?count=5&text=a+b`);
      else
        expect([url, init.body, headers['content-type']]).toEqual([
          `${file.h.url}${ENDPOINT}/Echo`,
          'count=5&text=a+b',
          'application/x-www-form-urlencoded',
        ]);
      expect(JSON.stringify({ url, init })).not.toContain(KEY.secret);
    },
  );
});

describe('answers that are not results', () => {
  const answering = (res: () => Response, binding: Binding = 'soap11') =>
    transport({ binding, fetch: () => Promise.resolve(res()) });

  it('an unexpected status without a fault is a TransportError carrying the status', async () => {
    const e = await answering(
      () =>
        new Response('<html>Bad gateway</html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
    )
      .call(Echo, { count: 1, text: 'a' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ code: 'status', httpStatus: 502 });
    expect((e as Error).message).toMatch(/HTTP 502/);
  });

  it('a 200 whose SOAP Body holds another element is a TransportError', async () => {
    const body =
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><Other/></s:Body></s:Envelope>';
    const call = answering(
      () => new Response(body, { status: 200, headers: { 'content-type': 'text/xml' } }),
    ).call(Echo, { count: 1, text: 'a' });
    await expect(call).rejects.toThrow(/expected EchoResponse/);
    await expect(call).rejects.toMatchObject({ code: 'unexpected-element', httpStatus: 200 });
  });

  // A 200 that is not XML (a proxy's login page, a JSON gateway) says so, whatever the body holds.
  const echoed = (binding: Binding) =>
    binding.startsWith('soap')
      ? '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><EchoResponse/></s:Body></s:Envelope>'
      : '<EchoResult/>';
  it.each([
    { given: 'text/html; charset=utf-8', want: /expected an XML answer, got text\/html/ },
    { given: 'application/json', want: /expected an XML answer, got application\/json/ },
    { given: 'text/plain', want: /expected an XML answer, got text\/plain/ },
  ])('a 200 answer of $given is a TransportError naming the type', async ({ given, want }) => {
    for (const binding of BINDINGS) {
      const e = await answering(
        () => new Response(echoed(binding), { status: 200, headers: { 'content-type': given } }),
        binding,
      )
        .call(Echo, { count: 1, text: 'a' })
        .catch((x: unknown) => x);
      expect(e, binding).toBeInstanceOf(TransportError);
      expect(e, binding).toMatchObject({ code: 'content-type', httpStatus: 200 });
      expect((e as Error).message, binding).toMatch(want);
      expect((e as Error).message, binding).toContain(`Echo over ${binding}`);
    }
  });

  it.each([
    'text/xml; charset=utf-8',
    'application/soap+xml',
    'application/xml',
    'application/atom+xml',
  ])('a 200 answer of %s is read as XML', async (type) => {
    const e = await answering(
      () => new Response('<not-closed', { status: 200, headers: { 'content-type': type } }),
    )
      .call(Echo, { count: 1, text: 'a' })
      .catch((x: unknown) => x);
    expect((e as Error).message).not.toMatch(/expected an XML answer/);
  });
});

describe('time-outs and abort', () => {
  const slow = () => {
    file.behaviour = (p) => new Promise((r) => setTimeout(() => r(p), 500));
  };

  it('times out with a clear TransportError', async () => {
    slow();
    const e = await transport({ timeoutMs: 50 })
      .call(Echo, { count: 1, text: 'a' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect((e as Error).message).toMatch(/^Echo over soap11 timed out after 50 ms/);
    expect(e).toMatchObject({ code: 'timeout', httpStatus: undefined });
  });

  it('a per-call timeout wins over the client default', async () => {
    slow();
    await expect(
      transport({ timeoutMs: 10_000 }).call(Echo, { count: 1, text: 'a' }, { timeoutMs: 30 }),
    ).rejects.toThrow(/timed out after 30 ms/);
  });

  it('honours an AbortSignal', async () => {
    slow();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const call = transport().call(Echo, { count: 1, text: 'a' }, { signal: ac.signal });
    await expect(call).rejects.toThrow(/Echo over soap11 was aborted/);
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('retry policy', () => {
  type Step = Response | Error;
  const scripted = (steps: Step[]) => {
    const log: string[] = [];
    const f = (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      log.push(String((init?.headers as Record<string, string>)?.soapaction));
      const step = steps.shift() ?? new Error('script ended');
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
    };
    return { fetch: f, log };
  };
  const ok = () =>
    new Response(
      `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${xmlString((out) => Echo.encodeSoapResponse({ count: 1, text: 'a' }, file.h.ns, out))}</s:Body></s:Envelope>`,
      { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } },
    );
  const busy = () => new Response('busy', { status: 503 });
  const retry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };

  it('retries a read operation on network errors and 503, then succeeds', async () => {
    const s = scripted([new TypeError('fetch failed'), busy(), ok()]);
    await expect(
      transport({ retry, fetch: s.fetch }).call(Echo, { count: 1, text: 'a' }),
    ).resolves.toEqual({ count: 1, text: 'a' });
    expect(s.log).toHaveLength(3);
  });

  it('gives up after the configured attempts with the last error', async () => {
    const s = scripted([busy(), busy(), busy(), ok()]);
    await expect(
      transport({ retry, fetch: s.fetch }).call(Echo, { count: 1, text: 'a' }),
    ).rejects.toMatchObject({ httpStatus: 503 });
    expect(s.log).toHaveLength(3);
  });

  it('never retries a mutating operation', async () => {
    const s = scripted([new TypeError('fetch failed'), ok()]);
    await expect(
      transport({ retry, fetch: s.fetch }).call(Forget, { ref: 'x' }),
    ).rejects.toBeInstanceOf(TransportError);
    expect(s.log).toHaveLength(1);
  });

  it('does not retry other statuses or faults, nor without a retry option', async () => {
    const fault = () =>
      new Response('Internal: Internal error\n', {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    const a = scripted([fault(), ok()]);
    await expect(
      transport({ retry, binding: 'httpGet', fetch: a.fetch }).call(Echo, { count: 1, text: 'a' }),
    ).rejects.toBeInstanceOf(ServiceError);
    expect(a.log).toHaveLength(1);
    const b = scripted([new TypeError('fetch failed'), ok()]);
    const call = transport({ fetch: b.fetch }).call(Echo, { count: 1, text: 'a' });
    await expect(call).rejects.toBeInstanceOf(TransportError);
    await expect(call).rejects.toMatchObject({ code: 'network' });
    expect(b.log).toHaveLength(1);
  });

  it('stops waiting to retry when the caller aborts', async () => {
    const s = scripted([busy(), ok()]);
    const ac = new AbortController();
    const call = transport({
      retry: { attempts: 3, baseDelayMs: 10_000, maxDelayMs: 10_000 },
      fetch: s.fetch,
    }).call(Echo, { count: 1, text: 'a' }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    await expect(call).rejects.toThrow(/aborted while waiting to retry/);
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    expect(s.log).toHaveLength(1);
  });

  it('signs each attempt afresh', async () => {
    const stamps: string[] = [];
    const steps: Step[] = [busy(), ok()];
    const f = (_u: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      stamps.push(/<Timestamp>([^<]+)</.exec(bodyText(init?.body))![1]!);
      const step = steps.shift()!;
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
    };
    await transport({ retry, fetch: f }).call(Echo, { count: 1, text: 'a' });
    expect(stamps).toHaveLength(2);
    expect(stamps[0]! < stamps[1]!).toBe(true);
  });
});
