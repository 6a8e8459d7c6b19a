// Signing (Web Crypto) against node:crypto, the timestamp format and clock, the replay store, and
// server-side verification with an injected clock.
import { createHmac } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryReplayStore } from '@evgen/runtime';
import {
  EngineFault,
  TimestampClock,
  formatTimestamp,
  parseTimestamp,
  signRequest,
  verifyAuth,
  type VerifyOptions,
} from '@evgen/runtime/internal';

const hmac = (key: string, message: string) =>
  createHmac('sha1', Buffer.from(key, 'utf8'))
    .update(Buffer.from(message, 'utf8'))
    .digest('base64');

describe('signRequest', () => {
  it('matches HMAC-SHA1 computed independently with node:crypto (test vector)', async () => {
    const expected = hmac('secret', 'GetBooking2026-01-02T03:04:05.678Z');
    expect(await signRequest('secret', 'GetBooking', '2026-01-02T03:04:05.678Z')).toBe(expected);
  });

  it('uses the UTF-8 bytes of a non-ASCII secret, and gives each secret its own key', async () => {
    expect(await signRequest('sécret☃', 'Echo', '2026-01-02T03:04:05.678Z')).toBe(
      hmac('sécret☃', 'Echo2026-01-02T03:04:05.678Z'),
    );
    expect(await signRequest('other', 'Echo', '2026-01-02T03:04:05.678Z')).toBe(
      hmac('other', 'Echo2026-01-02T03:04:05.678Z'),
    );
  });
});

describe('timestamps', () => {
  it('formats yyyy-MM-ddTHH:mm:ss.fffZ in UTC', () => {
    expect(formatTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe('2026-01-02T03:04:05.006Z');
  });

  it.each([
    '2026-01-02T03:04:05Z',
    '2026-01-02T03:04:05.6789Z',
    '2026-01-02 03:04:05.678Z',
    '2026-01-02T03:04:05.678+00:00',
    '2026-02-30T03:04:05.678Z',
    '2026-01-02T24:04:05.678Z',
    ' 2026-01-02T03:04:05.678Z',
  ])('refuses %j', (s) => expect(parseTimestamp(s)).toBeUndefined());

  // What parseTimestamp must agree with: the exact shape, then a round trip through Date.
  const byDate = (s: string): number | undefined => {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s)) return undefined;
    const ms = Date.parse(s);
    return Number.isNaN(ms) || formatTimestamp(ms) !== s ? undefined : ms;
  };
  const MIN = Date.parse('0000-01-01T00:00:00.000Z');
  const MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

  it.each([
    { given: '0000-01-01T00:00:00.000Z', want: MIN },
    { given: '0099-12-31T23:59:59.999Z', want: new Date('0099-12-31T23:59:59.999Z').getTime() },
    { given: '2000-02-29T00:00:00.000Z', want: Date.UTC(2000, 1, 29) },
    { given: '2024-02-29T12:00:00.000Z', want: Date.UTC(2024, 1, 29, 12) },
    { given: '1900-02-29T00:00:00.000Z', want: undefined },
    { given: '2026-04-31T00:00:00.000Z', want: undefined },
    { given: '2026-00-10T00:00:00.000Z', want: undefined },
    { given: '2026-13-10T00:00:00.000Z', want: undefined },
    { given: '2026-01-00T00:00:00.000Z', want: undefined },
    { given: '2026-01-01T00:60:00.000Z', want: undefined },
    { given: '2026-01-01T00:00:60.000Z', want: undefined },
    { given: '2026-01-01T00:00:00.000z', want: undefined },
    { given: '２026-01-01T00:00:00.000Z', want: undefined },
    { given: '9999-12-31T23:59:59.999Z', want: MAX },
  ])('reads $given as $want', ({ given, want }) => {
    expect(parseTimestamp(given)).toBe(want);
    expect(byDate(given)).toBe(want);
  });

  it('reads every formatted instant back (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN, max: MAX }), (ms) => {
        expect(parseTimestamp(formatTimestamp(ms))).toBe(ms);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with a round trip through Date on near-misses (property)', () => {
    const near = fc
      .tuple(
        fc.integer({ min: MIN, max: MAX }),
        fc.nat(23),
        fc.constantFrom(...'0123456789-:.TZ +9'),
      )
      .map(([ms, at, c]) => {
        const s = formatTimestamp(ms);
        return s.slice(0, at) + c + s.slice(at + 1);
      });
    const digitsAnywhere = fc
      .array(fc.constantFrom(...'0123456789'), { minLength: 17, maxLength: 17 })
      .map((d) => {
        const [y, m, dd, h, mi, sec, f] = [
          [0, 4],
          [4, 6],
          [6, 8],
          [8, 10],
          [10, 12],
          [12, 14],
          [14, 17],
        ].map(([a, b]) => d.slice(a, b).join(''));
        return `${y}-${m}-${dd}T${h}:${mi}:${sec}.${f}Z`;
      });
    fc.assert(
      fc.property(fc.oneof(near, digitsAnywhere, fc.string()), (s) => {
        expect(parseTimestamp(s)).toBe(byDate(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('hands out strictly increasing timestamps even when the clock stands still or goes back', () => {
    let now = Date.UTC(2026, 0, 1);
    const clock = new TimestampClock(() => now);
    const a = clock.next();
    const b = clock.next();
    now -= 5_000;
    const c = clock.next();
    expect([a, b, c]).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.001Z',
      '2026-01-01T00:00:00.002Z',
    ]);
  });
});

describe('MemoryReplayStore', () => {
  it('accepts a key once until it expires', () => {
    const store = new MemoryReplayStore();
    expect(store.seen('a', 1_000, 0)).toBe(false);
    expect(store.seen('a', 1_000, 500)).toBe(true);
    expect(store.seen('a', 2_000, 1_000)).toBe(false); // expired: a new entry
  });

  it('stays bounded, dropping the oldest live entries when full', () => {
    const store = new MemoryReplayStore(3);
    for (const k of ['a', 'b', 'c', 'd']) store.seen(k, 10_000, 0);
    expect(store.seen('d', 10_000, 1)).toBe(true);
    expect(store.seen('a', 10_000, 1)).toBe(false); // evicted to make room
  });

  it('drops expired entries first, and keeps every live one while there is room', () => {
    const store = new MemoryReplayStore(4);
    store.seen('old-1', 100, 0);
    store.seen('old-2', 100, 0);
    store.seen('live-1', 10_000, 0);
    store.seen('live-2', 10_000, 0);
    expect(store.seen('new', 10_000, 500)).toBe(false); // full: the two expired ones go
    expect(store.size).toBe(3);
    expect([
      store.seen('live-1', 10_000, 600),
      store.seen('live-2', 10_000, 600),
      store.seen('new', 10_000, 600),
    ]).toEqual([true, true, true]);
  });

  it('keeps a key that came again after expiring when its first place leaves the ring', () => {
    const store = new MemoryReplayStore(3);
    store.seen('x', 1_000, 0);
    store.seen('a', 100, 0);
    expect(store.seen('a', 400, 150)).toBe(false); // expired: a second place, behind live 'x'
    store.seen('y', 400, 150); // full: 'x' goes
    store.seen('z', 400, 150); // 'a''s first, expired place goes; its second stays
    expect(store.seen('a', 400, 200)).toBe(true);
    expect(store.size).toBe(3);
  });

  it('stays at its bound under a flood of live entries (200,000 arrivals into 1,000 places), the oldest going first', () => {
    const store = new MemoryReplayStore(1_000);
    for (let i = 0; i < 200_000; i++) store.seen(`k${i}`, 1e12, 0);
    expect(store.size).toBe(1_000);
    expect(store.seen('k199999', 1e12, 0)).toBe(true);
    expect(store.seen('k198999', 1e12, 0)).toBe(false); // the oldest went first
  });
});

describe('verifyAuth', () => {
  const NOW = Date.UTC(2026, 5, 1, 12);
  const opts = (over: Partial<VerifyOptions> = {}): VerifyOptions => ({
    lookupKey: (k) =>
      Promise.resolve(k === 'key' ? { secret: 'secret', name: 'named' } : undefined),
    clockSkewSeconds: 300,
    replayStore: new MemoryReplayStore(),
    now: () => NOW,
    ...over,
  });
  const values = (offsetMs: number, operation = 'Echo') => {
    const Timestamp = formatTimestamp(NOW + offsetMs);
    return {
      Timestamp,
      Operation: operation,
      Signature: hmac('secret', operation + Timestamp),
      APIKey: 'key',
    };
  };
  const refusal = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(EngineFault);
    return e as EngineFault;
  };

  it('accepts the edges of the window and returns the key name', async () => {
    await expect(verifyAuth(values(-300_000), 'Echo', opts())).resolves.toEqual({ name: 'named' });
    await expect(verifyAuth(values(300_000), 'Echo', opts())).resolves.toEqual({ name: 'named' });
  });

  it('refuses one millisecond outside a configured window', async () => {
    const o = opts({ clockSkewSeconds: 10 });
    expect((await refusal(verifyAuth(values(-10_001), 'Echo', o))).message).toMatch(
      /older than 10 seconds/,
    );
    expect((await refusal(verifyAuth(values(10_001), 'Echo', o))).message).toMatch(/in the future/);
  });

  it('refuses a replay unless the replay store is turned off', async () => {
    const v = values(0);
    const o = opts();
    await verifyAuth(v, 'Echo', o);
    expect((await refusal(verifyAuth(v, 'Echo', o))).message).toMatch(/replayed/);
    const off = opts({ replayStore: undefined });
    await verifyAuth(v, 'Echo', off);
    await expect(verifyAuth(v, 'Echo', off)).resolves.toBeDefined();
  });

  it('does not record forged requests in the replay store', async () => {
    const store = new MemoryReplayStore();
    const v = values(0);
    await refusal(
      verifyAuth(
        { ...v, Signature: hmac('wrong', 'Echo' + v.Timestamp) },
        'Echo',
        opts({ replayStore: store }),
      ),
    );
    await expect(verifyAuth(v, 'Echo', opts({ replayStore: store }))).resolves.toBeDefined();
  });

  it('refuses a non-canonical base64 signature and missing values (401)', async () => {
    const v = values(0);
    await refusal(verifyAuth({ ...v, Signature: `${v.Signature}\n` }, 'Echo', opts()));
    const missing = await refusal(verifyAuth({ ...v, APIKey: '' }, 'Echo', opts()));
    expect([missing.role, missing.httpStatus]).toEqual(['authentication', 401]);
  });
});

describe('browser safety', () => {
  it('has no static node: import anywhere in the runtime', () => {
    const root = join(import.meta.dirname, '../../../../src/runtime');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.startsWith('dist'),
    );
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((f) =>
      /^import (?!type\b)[^;]*from 'node:/m.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
