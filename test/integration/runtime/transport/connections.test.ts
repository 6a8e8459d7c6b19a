// Connections a caller can make the server hold, and how they are shared. One that never sends a
// byte is answered 408 and closed once the header time-out passes; a body slower than its
// deadlines is answered 408 long before the request time-out; no client address holds more than
// its share; at the limit the connection idle the longest (a keep-alive one between requests, or
// one not past its request head) makes room, and when every one is busy a new one is refused at
// once (before, a flood of idle connections held every slot and file descriptor until the header
// time-out freed them); a reserved path is answered even then.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  listen,
  type ListenOptions,
  type RunningServer,
  type ServiceResponse,
} from '@evgen/runtime';
import { RESERVED_HEAD_MS, clientOf, type DroppedConnection } from '@evgen/runtime/internal';
import { rawConnection } from '../../../support/sockets.js';

const servers: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server answering 'ok' (413 to a body past the limit), or, for /slow, once `gate` opens. */
async function serve(o: ListenOptions, gate?: Promise<void>): Promise<RunningServer> {
  const s = await listen(
    async (req): Promise<ServiceResponse> => {
      if (req.bodyLimitExceeded !== undefined) return { status: 413, headers: {}, body: '' };
      if (req.url === '/slow') await gate;
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
    },
    { connectionsCheckingIntervalMs: 50, ...o },
  );
  servers.push(s);
  return s;
}

const open = (url: string) => rawConnection(url, sockets);

/** A raw connection from `localAddress` (any 127.x.y.z is this machine). */
async function openFrom(url: string, localAddress: string) {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  sockets.push(socket);
  await new Promise((r) => socket.once('connect', r));
  let data = '';
  socket.setEncoding('utf8').on('data', (c: string) => (data += c));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((r) => socket.once('close', () => r(data)));
  return { socket, closed };
}

/** `p`, or `late` once `ms` pass. */
const within = <T>(p: Promise<T>, ms: number, late: T) =>
  Promise.race([p, new Promise<T>((r) => setTimeout(() => r(late), ms))]);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const drops = (s: RunningServer) => {
  const seen: DroppedConnection[] = [];
  s.server.on('drop', (d: DroppedConnection) => seen.push(d));
  return seen;
};

const GET = (path = '/') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
const REFUSED = /^HTTP\/1\.1 503 Service Unavailable\r\n.*Retry-After: 1\r\n/s;

describe('connections', () => {
  it('closes a connection that sends nothing once the header time-out passes', async () => {
    const s = await serve({ headersTimeoutMs: 300 });
    const idle = await open(s.url);
    const served = await open(s.url);
    served.socket.write(GET());
    const closed = await within(idle.closed, 5_000, { data: 'still open', ms: 5_000 });
    expect(closed.data).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.ms).toBeGreaterThanOrEqual(250);
    expect(closed.ms).toBeLessThan(5_000);
    // A connection whose request came in time was answered, and is not closed by this time-out.
    expect(served.socket.destroyed).toBe(false);
  });

  it('at maxConnections closes the connection idle the longest to let a new one in', async () => {
    const s = await serve({ maxConnections: 3 });
    const first = await open(s.url);
    await pause(20);
    const others = [await open(s.url), await open(s.url)];
    const next = await open(s.url);
    expect((await within(first.closed, 5_000, { data: 'still open', ms: 0 })).data).toBe('');
    next.socket.write(GET());
    await expect.poll(() => next.socket.bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
    for (const o of others) expect(o.socket.destroyed).toBe(false);
  });

  it('at maxConnections closes a keep-alive connection between requests, never a busy one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = await serve({ maxConnections: 2 }, gate);
    const seen = drops(s);
    // The busy one is the older: age alone does not make a connection go.
    const busy = await open(s.url);
    busy.socket.write(GET('/slow'));
    await pause(50);
    const kept = await open(s.url);
    kept.socket.write(GET());
    await expect.poll(() => kept.socket.bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
    const next = await open(s.url);
    // The keep-alive one, answered and waiting for its next request, makes room.
    const closed = await within(kept.closed, 5_000, { data: 'still open', ms: 0 });
    expect(closed.data).toMatch(/^HTTP\/1\.1 200 OK\r\n.*\r\n\r\nok$/s);
    next.socket.write(GET());
    await expect.poll(() => next.socket.bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(busy.socket.destroyed).toBe(false);
    expect(seen).toEqual([]);
    release();
    await expect.poll(() => busy.socket.bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it('refuses a new connection at once when every one is busy, and accepts again after', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = await serve({ maxConnections: 2 }, gate);
    const seen = drops(s);
    const busy = [await open(s.url), await open(s.url)];
    for (const b of busy) b.socket.write(GET('/slow'));
    await pause(100);
    const extra = await open(s.url);
    const refused = await within(extra.closed, 5_000, { data: 'still open', ms: 0 });
    expect(refused.data).toMatch(REFUSED);
    expect(seen).toEqual([expect.objectContaining({ client: '127.0.0.1', reason: 'limit' })]);
    release();
    for (const b of busy) await expect.poll(() => b.socket.bytesRead).toBeGreaterThan(0);
    const res = await fetch(s.url, { signal: AbortSignal.timeout(5_000) });
    expect([res.status, await res.text()]).toEqual([200, 'ok']);
  });

  it('holds no client to more than maxConnectionsPerClient, whoever else is there', async () => {
    const s = await serve({ maxConnectionsPerClient: 2 });
    const seen = drops(s);
    const mine = [await openFrom(s.url, '127.0.0.1'), await openFrom(s.url, '127.0.0.1')];
    const third = await openFrom(s.url, '127.0.0.1');
    expect(await within(third.closed, 5_000, 'still open')).toMatch(REFUSED);
    expect(seen).toEqual([expect.objectContaining({ client: '127.0.0.1', reason: 'per-client' })]);
    const other = await openFrom(s.url, '127.0.0.2');
    other.socket.write(GET());
    await expect.poll(() => other.socket.bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
    // One of mine goes: I may open another.
    mine[0]!.socket.destroy();
    await mine[0]!.closed;
    await pause(20);
    const again = await openFrom(s.url, '127.0.0.1');
    again.socket.write(GET());
    await expect.poll(() => again.socket.bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it('answers the reserved path when every connection is busy, and nothing else there', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = await serve(
      { maxConnections: 1, reservedPath: '/healthz', reservedConnections: 2 },
      gate,
    );
    const seen = drops(s);
    const busy = await open(s.url);
    busy.socket.write(GET('/slow'));
    await pause(100);
    const health = await open(s.url);
    health.socket.write(GET('/healthz'));
    const answered = (await within(health.closed, 5_000, { data: 'open', ms: 0 })).data;
    expect(answered).toMatch(/^HTTP\/1\.1 200 OK\r\n.*connection: close\r\n\r\nok$/is);
    const other = await open(s.url);
    other.socket.write(GET('/anything'));
    expect((await within(other.closed, 5_000, { data: 'open', ms: 0 })).data).toMatch(
      /^HTTP\/1\.1 503 /,
    );
    // On the reserve a connection that asks nothing is closed after RESERVED_HEAD_MS.
    const silent = await open(s.url);
    const closed = await within(silent.closed, RESERVED_HEAD_MS + 3_000, { data: 'open', ms: 0 });
    expect(closed.data).toBe('');
    expect(closed.ms).toBeGreaterThanOrEqual(RESERVED_HEAD_MS - 100);
    expect(seen.map((d) => d.reason)).toEqual(['reserved', 'reserved']);
    release();
  }, 15_000);

  it.each([
    ['maxConnections', 0, 'above 0'],
    ['maxConnections', -1, 'above 0'],
    ['maxConnections', 1.5, 'above 0'],
    ['maxConnections', Number.NaN, 'above 0'],
    ['maxConnectionsPerClient', 0, 'above 0'],
    ['reservedConnections', -1, '0 or more'],
  ])('refuses %s %s, naming it', async (name, n, what) => {
    await expect(serve({ [name]: n, reservedPath: '/healthz' })).rejects.toThrow(
      `${name}: ${n} is not a whole number ${what}`,
    );
  });
});

describe('slow bodies', () => {
  /**
   * POSTs a body of `total` bytes, `first` of them at once and then `chunk` bytes every `everyMs`;
   * the answer and when it came.
   */
  function trickle(url: string, total: number, chunk: number, everyMs: number, first = 0) {
    const { hostname, port } = new URL(url);
    return new Promise<{ data: string; ms: number }>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) });
      sockets.push(socket);
      const started = Date.now();
      let data = '';
      let sent = 0;
      let timer: ReturnType<typeof setInterval> | undefined;
      socket.setEncoding('utf8').on('data', (c: string) => (data += c));
      socket.on('error', () => undefined);
      socket.on('close', () => (clearInterval(timer), resolve({ data, ms: Date.now() - started })));
      socket.on('connect', () => {
        socket.write(
          `POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${total}\r\nConnection: close\r\n\r\n`,
        );
        if (first > 0) socket.write('x'.repeat(first));
        sent = first;
        timer = setInterval(() => {
          const n = Math.min(chunk, total - sent);
          if (n > 0) socket.write('x'.repeat(n));
          sent += n;
        }, everyMs);
      });
    });
  }
  const limits = { bodyTimeoutMs: 400, minBodyBytesPerSecond: 1_000, requestTimeoutMs: 10_000 };

  it('answers 408 to a body trickling in, far before the request time-out', async () => {
    const s = await serve(limits);
    const r = await trickle(s.url, 1_000, 1, 50); // 20 bytes a second
    expect(r.data).toMatch(/^HTTP\/1\.1 408 /);
    expect(r.ms).toBeGreaterThanOrEqual(350);
    expect(r.ms).toBeLessThan(3_000);
  });

  it('answers 408 to a body that stops coming', async () => {
    const s = await serve(limits);
    const r = await trickle(s.url, 1_000, 500, 2_000); // half at once, then nothing for 2 s
    expect(r.data).toMatch(/^HTTP\/1\.1 408 /);
    expect(r.ms).toBeLessThan(2_000);
  });

  it('reads a body that comes at the rate, however long it takes', async () => {
    const s = await serve(limits);
    const r = await trickle(s.url, 3_000, 250, 100); // 2,500 bytes a second for 1.2 s
    expect(r.data).toMatch(/^HTTP\/1\.1 200 /);
    expect(r.ms).toBeGreaterThan(1_000);
  });

  // A body past the limit is read on and dropped (up to 8x) so that a client writing it whole
  // before reading gets its 413; that drain is held to the same deadlines, and what it earns is
  // capped at the limit, so an oversize body cannot hold its connection longer than a whole one.
  it.each([
    { given: 'trickling in', chunk: 10, everyMs: 20, before: 3_000 }, // 500 bytes a second
    { given: 'that stops coming', chunk: 0, everyMs: 1_000, before: 2_000 },
  ])(
    'answers 413 at once to an oversize body whose rest is $given',
    async ({ chunk, everyMs, before }) => {
      const s = await serve({ ...limits, maxBodyBytes: 1_000 });
      const r = await trickle(s.url, 7_000, chunk, everyMs, 1_500);
      expect(r.data).toMatch(/^HTTP\/1\.1 413 .*connection: close\r\n/is);
      expect(r.ms).toBeGreaterThanOrEqual(350);
      expect(r.ms).toBeLessThan(before);
    },
  );
});

describe('clientOf', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('%s counts as %s', (address, want) => expect(clientOf(address)).toBe(want));
});
