// `evgen serve --max-connections`: at the limit, with every connection busy, a new one is
// answered 503 and closed, the refusals are logged (one line a second at most, with why and who),
// and /healthz is still answered on the reserve; once a connection ends a new one is served.
// Without the bound, idle connections took every file descriptor; without the reserve, a full node
// looked dead to its load balancer.
import { connect, type Socket } from 'node:net';
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
  reasons: Record<string, number>;
  clients: Record<string, number>;
  maxConnections: number;
  maxConnectionsPerClient: number;
}

it('refuses connections past --max-connections when all are busy, logs them, and answers /healthz', async () => {
  const p = serve(
    join(dir, 'events.sqlite'),
    '--max-connections',
    '2',
    '--max-connections-per-client',
    '8',
    '--workers',
    '1',
  );
  const sockets: Socket[] = [];
  try {
    const { url } = await p.ready;
    expect(p.stderr()).toContain(
      'connections: at most 2 open at once (--max-connections), 8 per client address',
    );
    const open = () => rawConnection(url, sockets);
    // Two requests whose bodies are still on their way: busy, not idle.
    const { port } = new URL(url);
    const busy = [await open(), await open()];
    for (const b of busy)
      b.socket.write(
        `POST /API/1_0/SOAP/ServiceAPI.asmx HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 100\r\n\r\n<x`,
      );
    await new Promise((r) => setTimeout(r, 200));
    const extras = [await open(), await open(), await open()];
    for (const e of extras) {
      e.socket.write(`GET /API/1_0/SOAP/ServiceAPI.asmx?wsdl HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expect((await e.closed).data).toMatch(/^HTTP\/1\.1 503 /);
    }
    // The load balancer's health check is answered on the reserve, busy as the node is.
    const health = connect({ host: '127.0.0.1', port: Number(port) });
    sockets.push(health);
    let answer = '';
    health.setEncoding('utf8').on('data', (d: string) => (answer += d));
    health.on('connect', () => health.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    await new Promise((r) => health.once('close', r));
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // One line for the three, about a second later, saying why and who.
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
      reasons: { reserved: 3 },
      clients: { '127.0.0.1': 3 },
      maxConnections: 2,
      maxConnectionsPerClient: 8,
    });
    // A busy one ends: a new connection is accepted and served.
    busy[0]!.socket.destroy();
    await busy[0]!.closed;
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
  } finally {
    for (const s of sockets) s.destroy();
    await stop(p);
  }
}, 60_000);
