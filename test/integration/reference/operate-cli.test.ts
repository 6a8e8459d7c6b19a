// `evgen serve` with the operating options, as a process: the banner and the demo key on stderr,
// only JSON log lines on stdout (flushed at SIGTERM although written asynchronously), --log-level
// leaving out what is below it, the admin listener's address in the banner.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventServiceClient } from '@evgen/event-management/client';
import { serve, stop } from './serve-process.js';

const TOKEN = 'cli-token-0123456789abcdef';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-operate-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('logs JSON on stdout from --log-level, the banner apart on stderr, and serves /metrics', async () => {
  process.env.EVGEN_ADMIN_TOKEN = TOKEN;
  const p = serve(
    join(dir, 'events.sqlite'),
    '--workers',
    '1',
    '--log-level',
    'warn',
    '--admin-port',
    '0',
    '--test-controls',
  );
  delete process.env.EVGEN_ADMIN_TOKEN;
  try {
    const { url, key } = await p.ready;
    const admin = /metrics:\s+(http:\/\/\S+)\/metrics/.exec(p.stderr())?.[1];
    expect(admin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(p.stderr()).toContain(`test controls: ${admin!}/controls`);
    const client = new EventServiceClient({ baseUrl: url, ...key! });
    await client.getShows(); // info: below --log-level warn
    const armed = await fetch(`${admin!}/controls/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'GetShows', fault: 'Unavailable' }),
    });
    expect(armed.status).toBe(201);
    await expect(client.getShows()).rejects.toMatchObject({ code: 'Unavailable' });
    const metrics = await (await fetch(`${admin!}/metrics`)).text();
    expect(metrics).toContain(
      'evgen_requests_total{operation="GetShows",binding="soap11",outcome="ok"} 1',
    );
  } finally {
    await stop(p);
  }
  const lines = p
    .stdout()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.filter((l) => l.operation === 'GetShows')).toEqual([
    expect.objectContaining({ level: 'warn', faultCode: 'Unavailable', status: 503 }),
  ]);
  expect(lines.every((l) => ['warn', 'error', 'fatal'].includes(String(l.level)))).toBe(true);
  expect(p.stdout()).not.toMatch(/SecretKey|DEMO KEY/);
  expect(p.stderr()).toMatch(/SecretKey:\s+\S+/);
});
