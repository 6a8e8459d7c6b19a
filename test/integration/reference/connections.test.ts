// `evgen serve --max-connections`: past it a new connection is closed at once and the refusals
// are logged (one line a second at most); the connections held are served, and once one ends
// a new one is accepted. Without the bound, idle connections took every file descriptor.
import type { Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawConnection } from '../../support/sockets.js';
import { serve, stop } from './serve-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-connections-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

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
    const open = () => rawConnection(url, sockets);
    const held = [await open(), await open()];
    const extras = [await open(), await open(), await open()];
    for (const e of extras) expect((await e.closed).data).toBe('');
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
    expect((await held[0]!.closed).data).toMatch(/^HTTP\/1\.1 200 /);
    // That one ended: a new connection is accepted and served.
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
  } finally {
    for (const s of sockets) s.destroy();
    await stop(p);
  }
}, 60_000);
