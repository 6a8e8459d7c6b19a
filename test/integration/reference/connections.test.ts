// `evgen serve --max-connections`: past it a new connection is closed at once and the refusals
// are logged (one line a second at most); the connections held are served, and once one ends
// a new one is accepted. Without the bound, idle connections took every file descriptor.
import { connect, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, stop } from './serve-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-connections-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A raw connection; `closed` resolves with what the server sent before closing it. */
async function open(url: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise((r) => socket.once('connect', r));
  let data = '';
  socket.setEncoding('utf8').on('data', (c: string) => (data += c));
  socket.on('error', () => undefined);
  return { socket, closed: new Promise((r) => socket.once('close', () => r(data))) };
}

interface Refused {
  event: string;
  count: number;
  maxConnections: number;
}

it('closes connections past --max-connections, logs them, and accepts again when one ends', async () => {
  const p = serve(join(dir, 'events.sqlite'), '--max-connections', '2', '--workers', '1');
  const sockets: Socket[] = [];
  try {
    const { url } = await p.ready;
    expect(p.stderr()).toContain('connections: at most 2 open at once');
    const held = [await open(url), await open(url)];
    sockets.push(...held.map((h) => h.socket));
    const extras = [await open(url), await open(url), await open(url)];
    sockets.push(...extras.map((h) => h.socket));
    for (const e of extras) expect(await e.closed).toBe('');
    // One line for the three, about a second later.
    const refused = (): Refused[] =>
      p
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"connections refused"'))
        .map((l) => JSON.parse(l) as Refused);
    await expect.poll(refused, { timeout: 10_000 }).toHaveLength(1);
    expect(refused()[0]).toMatchObject({
      event: 'connections refused',
      count: 3,
      maxConnections: 2,
    });
    // The ones held are answered.
    held[0]!.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(await held[0]!.closed).toMatch(/^HTTP\/1\.1 200 /);
    // That one ended: a new connection is accepted and served.
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
  } finally {
    for (const s of sockets) s.destroy();
    await stop(p);
  }
}, 60_000);
