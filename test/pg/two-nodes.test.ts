// The running-the-service guide's recipe for two nodes locally (scripts/two-nodes.sh): both nodes serve the same
// database, a key created on it works on both, and stopping the script stops the nodes and the
// server and leaves nothing behind.
import { spawn } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { EventServiceClient } from '@evgen/event-management/client';
import { PROJECT_ROOT } from '../support/ir.js';
import { BIN } from '../integration/reference/serve-process.js';
import { completeClient } from '../support/complete.js';

it('scripts/two-nodes.sh: two nodes on one database, stopped cleanly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evgen-recipe-'));
  const script = spawn('bash', [join(PROJECT_ROOT, 'scripts/two-nodes.sh')], {
    env: { ...process.env, PORT_A: '0', PORT_B: '0', PGDIR: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise<number | null>((r) => script.once('exit', r));
  try {
    const ready = await new Promise<{ urls: string[]; url: string; key: string[] }>(
      (resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not ready: ${err}`)), 90_000);
        script.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const urls = [...err.matchAll(/endpoint: (http:\/\/[^/]+)\//g)].map((m) => m[1]!);
          const key = /APIKey:\s+(\S+)\s+SecretKey:\s+(\S+)/.exec(err);
          const url = /database: (postgres:\S+)/.exec(err)?.[1];
          if (urls.length < 2 || !key || !url || (err.match(/workers: /g) ?? []).length < 2) return;
          clearTimeout(timer);
          resolve({ urls, url, key: [key[1]!, key[2]!] });
        });
        void exited.then((code) => reject(new Error(`script exited with ${code}: ${err}`)));
      },
    );
    for (const baseUrl of ready.urls) {
      const c = completeClient(
        new EventServiceClient({ baseUrl, apiKey: ready.key[0]!, secretKey: ready.key[1]! }),
      );
      expect((await c.getEventDetails7({ eventId: 1 })).EventId).toBe(1);
    }
    const issued = JSON.parse(
      (
        await promisify(execFile)('node', [
          BIN,
          'keys',
          'create',
          '--name',
          'partner',
          '--json',
          '--db',
          ready.url,
        ])
      ).stdout,
    ) as { apiKey: string; secretKey: string };
    for (const baseUrl of ready.urls)
      expect(
        (await completeClient(new EventServiceClient({ baseUrl, ...issued })).getShows()).length,
      ).toBeGreaterThan(0);
  } finally {
    script.kill('SIGTERM');
    await exited;
  }
  // The server stopped (its socket is gone) and no node is left answering.
  expect(readdirSync(dir).filter((f) => f.startsWith('.s.PGSQL'))).toEqual([]);
  expect(existsSync(join(dir, 'data', 'postmaster.pid'))).toBe(false);
  rmSync(dir, { recursive: true, force: true });
}, 120_000);
