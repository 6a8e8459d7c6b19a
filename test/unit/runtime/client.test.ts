// The client engine with a scripted fetch: retry policy, time-outs, abort, timestamps, signing.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TransportError } from '@evgen/runtime';
import {
  KeyClocks,
  MAX_CLOCK_KEYS,
  TimestampClock,
  clientClockKeys,
  formatTimestamp,
  parseTimestamp,
  signRequest,
} from '@evgen/runtime/internal';
import { EventServiceClient } from '@evgen/event-management/client';

type Step = Response | Error | 'hang';

/** Why a signal was aborted, as the Error fetch rejects with (an AbortError or TimeoutError DOMException). */
const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));

function scripted(steps: Step[]) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    const step = steps.shift() ?? new Error('no more steps');
    if (step === 'hang') {
      // Like fetch: reject at once when already aborted, else when the signal fires.
      return new Promise((_, reject) => {
        const signal = init.signal;
        if (signal?.aborted) reject(abortReason(signal));
        signal?.addEventListener('abort', () => reject(abortReason(signal)));
      });
    }
    if (step instanceof Error) throw step;
    return step;
  }) as unknown as typeof globalThis.fetch;
  return { fetch, seen };
}

const shows = () =>
  new Response(
    '<?xml version="1.0"?><ArrayOfShowResponse xmlns="https://svc.example/API/1_0/SOAP/"></ArrayOfShowResponse>',
    { status: 200, headers: { 'content-type': 'text/xml' } },
  );
const client = (fetch: typeof globalThis.fetch, extra: object = {}) =>
  new EventServiceClient({
    baseUrl: 'http://svc.example',
    apiKey: 'k',
    secretKey: 's',
    binding: 'httpGet',
    fetch,
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });

describe('retry policy', () => {
  it('retries a read operation on network errors and 503', async () => {
    const s = scripted([
      new TypeError('ECONNRESET'),
      new Response('busy', { status: 503 }),
      shows(),
    ]);
    await expect(client(s.fetch).getShows()).resolves.toEqual([]);
    expect(s.seen).toHaveLength(3);
    const stamps = s.seen.map((c) => (c.init.headers as Record<string, string>).Timestamp!);
    expect(new Set(stamps).size).toBe(3); // each attempt is signed afresh
  });

  // What the reference service answers when its queue is full (spec/errors.yaml: Unavailable).
  const unavailable = (retryAfter: string) =>
    new Response('Unavailable: busy\n', {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': retryAfter },
    });

  it('waits at least Retry-After before retrying', async () => {
    const s = scripted([unavailable('1'), shows()]);
    const at: number[] = [];
    const timed = ((url: string, init: RequestInit) => (
      at.push(performance.now()),
      s.fetch(url, init)
    )) as typeof globalThis.fetch;
    const c = client(timed, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5_000 } });
    await expect(c.getShows()).resolves.toEqual([]);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(990); // timers may fire a little early
  });

  it('gives up at once when Retry-After is longer than the policy waits', async () => {
    const s = scripted([unavailable('30'), shows()]);
    await expect(client(s.fetch).getShows()).rejects.toMatchObject({
      code: 'Unavailable',
      httpStatus: 503,
      retryAfterSeconds: 30,
    });
    expect(s.seen).toHaveLength(1);
  });

  const inNineAndAHalf = () => new Date(Date.now() + 9_500).toUTCString(); // whole seconds: 9 or 10
  it.each([
    { name: '0', given: () => '0', want: [0] },
    { name: 'spaced 120', given: () => ' 120 ', want: [120] },
    { name: 'a date 9.5 s ahead', given: inNineAndAHalf, want: [9, 10] },
    { name: 'a date past', given: () => 'Thu, 01 Jan 1970 00:00:00 GMT', want: [0] }, // in the past: no wait
    { name: 'soon', given: () => 'soon', want: [undefined] },
    { name: '-5', given: () => '-5', want: [undefined] },
  ])('reads Retry-After $name as one of $want s', async ({ given, want }) => {
    const s = scripted([unavailable(given())]);
    const e = await client(s.fetch, { retry: undefined })
      .getShows()
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'Unavailable' });
    expect(want).toContain((e as { retryAfterSeconds?: number }).retryAfterSeconds);
  });

  it('never retries an operation that changes data', async () => {
    const s = scripted([new TypeError('ECONNRESET'), shows()]);
    await expect(client(s.fetch).cancelBooking({ bookingReference: 'B-1' })).rejects.toBeInstanceOf(
      TransportError,
    );
    expect(s.seen).toHaveLength(1);
  });

  it('does not retry a fault', async () => {
    const s = scripted([
      new Response('NotFound: no\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
    ]);
    await expect(client(s.fetch).getShows()).rejects.toMatchObject({
      code: 'NotFound',
      httpStatus: 404,
    });
    expect(s.seen).toHaveLength(1);
  });
});

describe('time-outs and abort', () => {
  it('times out with a clear error', async () => {
    const s = scripted(['hang']);
    await expect(
      client(s.fetch, { retry: undefined }).getShows({}, { timeoutMs: 20 }),
    ).rejects.toThrow(/GetShows over httpGet timed out/);
  });

  it('honours an AbortSignal', async () => {
    const s = scripted(['hang']);
    const ctl = new AbortController();
    const pending = client(s.fetch).getShows({}, { signal: ctl.signal });
    ctl.abort();
    await expect(pending).rejects.toThrow(/was aborted/);
    expect(s.seen).toHaveLength(1);
  });
});

describe('timestamps and signatures', () => {
  it('hands out strictly increasing timestamps within one millisecond', () => {
    const clock = new TimestampClock(() => Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    expect([clock.next(), clock.next(), clock.next()]).toEqual([
      '2026-01-02T03:04:05.678Z',
      '2026-01-02T03:04:05.679Z',
      '2026-01-02T03:04:05.680Z',
    ]);
  });

  it('parses only exact, real timestamps', () => {
    expect(parseTimestamp('2026-01-02T03:04:05.678Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    for (const bad of [
      '2026-01-02T03:04:05Z',
      '2026-02-30T00:00:00.000Z',
      '2026-01-02 03:04:05.678Z',
      '2026-01-02T03:04:05.678+00:00',
    ])
      expect(parseTimestamp(bad), bad).toBeUndefined();
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('signs base64(HMAC-SHA1(utf8 secret, operation + timestamp)), as node:crypto computes it', async () => {
    const want = createHmac('sha1', Buffer.from('secret', 'utf8'))
      .update('GetBooking2026-01-02T03:04:05.678Z', 'utf8')
      .digest('base64');
    expect(await signRequest('secret', 'GetBooking', '2026-01-02T03:04:05.678Z')).toBe(want);
    const unicode = createHmac('sha1', Buffer.from('sécret€', 'utf8'))
      .update('GetShows2026-01-02T03:04:05.678Z')
      .digest('base64');
    expect(await signRequest('sécret€', 'GetShows', '2026-01-02T03:04:05.678Z')).toBe(unicode);
  });

  it('never sends the secret', async () => {
    const s = scripted([shows()]);
    await client(s.fetch, { secretKey: 'TOP-SECRET-VALUE' }).getShows();
    expect(JSON.stringify(s.seen)).not.toContain('TOP-SECRET-VALUE');
  });
});

describe('timestamp clocks of the process', () => {
  it('holds a bounded number of API keys, however many keys clients were made for', async () => {
    const s = scripted(Array.from({ length: 3 * MAX_CLOCK_KEYS }, () => shows()));
    for (let i = 0; i < 3 * MAX_CLOCK_KEYS; i++)
      await client(s.fetch, { apiKey: `key-${i}`, retry: undefined }).getShows();
    expect(clientClockKeys()).toBeLessThanOrEqual(MAX_CLOCK_KEYS);
  });

  it("keeps a key's timestamps increasing across its clock being dropped and made again", () => {
    const clocks = new KeyClocks(2, () => Date.UTC(2026, 0, 2)); // time stands still
    const a = [clocks.next('a'), clocks.next('a'), clocks.next('a')]; // ahead of the time by 2 ms
    clocks.next('b');
    clocks.next('a'); // used last: b goes first
    clocks.next('c');
    expect(clocks.size).toBe(2);
    clocks.next('d'); // a goes
    const again = clocks.next('a');
    expect(again > a[2]!, `${again} after ${a[2]}`).toBe(true);
    expect(clocks.size).toBe(2);
  });
});
