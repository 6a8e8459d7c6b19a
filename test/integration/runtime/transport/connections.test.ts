// Connections a caller can make the server hold. One that never sends a byte is answered 408 and
// closed once the header time-out passes (node:http counts it from the connection; this holds us
// to it). Past `maxConnections` a new connection is closed at once: before, a flood of idle
// connections held file descriptors up to the process's limit until the header time-out freed
// them, and nothing else in the process could open a file or a socket meanwhile.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type ListenOptions, type RunningServer } from '@evgen/runtime';
import { rawConnection } from '../../../support/sockets.js';

const servers: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(o: ListenOptions): Promise<RunningServer> {
  const s = await listen(
    () => Promise.resolve({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' }),
    { connectionsCheckingIntervalMs: 50, ...o },
  );
  servers.push(s);
  return s;
}

const open = (url: string) => rawConnection(url, sockets);

/** `p`, or `late` once `ms` pass. */
const within = <T>(p: Promise<T>, ms: number, late: T) =>
  Promise.race([p, new Promise<T>((r) => setTimeout(() => r(late), ms))]);

const GET = 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n';

describe('connections', () => {
  it('closes a connection that sends nothing once the header time-out passes', async () => {
    const s = await serve({ headersTimeoutMs: 300 });
    const idle = await open(s.url);
    const served = await open(s.url);
    served.socket.write(GET);
    const closed = await within(idle.closed, 5_000, { data: 'still open', ms: 5_000 });
    expect(closed.data).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.ms).toBeGreaterThanOrEqual(250);
    expect(closed.ms).toBeLessThan(5_000);
    // A connection whose request came in time was answered, and is not closed by this time-out.
    expect(served.socket.destroyed).toBe(false);
  });

  it('closes new connections past maxConnections at once, and accepts again when one ends', async () => {
    const max = 3;
    const s = await serve({ maxConnections: max });
    const held = await Promise.all(Array.from({ length: max }, () => open(s.url)));
    const extra = await open(s.url);
    extra.socket.write(GET);
    const refused = await within(extra.closed, 5_000, { data: 'still open', ms: 5_000 });
    expect(refused.data).toBe('');
    // The ones held are served as usual.
    held[0]!.socket.write(GET);
    await expect.poll(() => held[0]!.socket.bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
    // One goes: a new connection is accepted and served.
    held[1]!.socket.destroy();
    await held[1]!.closed;
    const res = await fetch(s.url, { signal: AbortSignal.timeout(5_000) });
    expect([res.status, await res.text()]).toEqual([200, 'ok']);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxConnections %s, naming it', async (max) => {
    await expect(serve({ maxConnections: max })).rejects.toThrow(
      `maxConnections: ${max} is not a whole number above 0`,
    );
  });
});
