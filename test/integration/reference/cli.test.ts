// The operator commands: keys (create, list, revoke), tokens, seed, and a graceful stop of serve.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/reference/db/open.js';
import { keyLookup } from '../../../src/reference/keys.js';
import { PROJECT_ROOT } from '../../support/ir.js';

const BIN = join(PROJECT_ROOT, 'src/cli/bin.js');
let dir: string;
let db: string;
const evgen = async (...args: string[]) =>
  (await promisify(execFile)('node', [BIN, ...args, '--db', db], { cwd: PROJECT_ROOT })).stdout;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-ops-'));
  db = join(dir, 'events.sqlite');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('operator commands', () => {
  it('seeds, issues and revokes keys, and issues tokens', async () => {
    expect(await evgen('seed', '--events', '4', '--bookings', '50')).toMatch(
      /^seeded 4 events, 50 bookings, 50 contacts/,
    );
    const key = JSON.parse(await evgen('keys', 'create', '--name', 'integrator', '--json')) as {
      apiKey: string;
      secretKey: string;
    };
    expect(key.apiKey).toMatch(/^ak_[0-9a-f]{24}$/);
    const list = await evgen('keys', 'list');
    expect(list).toContain(`${key.apiKey}  integrator`);
    expect(list).not.toContain(key.secretKey);
    const handle = openDatabase(db);
    try {
      expect(await keyLookup(handle)(key.apiKey)).toEqual({
        secret: key.secretKey,
        name: 'integrator',
      });
      expect(await evgen('keys', 'revoke', key.apiKey)).toContain('revoked');
      expect(await keyLookup(handle)(key.apiKey)).toBeUndefined();
    } finally {
      handle.close();
    }
    const token = JSON.parse(
      await evgen('tokens', 'create', '--contact', '1', '--single-use', '--ttl', '15m', '--json'),
    ) as { token: string; expiresAt: string };
    expect(token.token.length).toBeGreaterThan(20);
    expect(Date.parse(token.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
  });

  it('serve stops gracefully on SIGTERM and closes the database', async () => {
    const child = spawn('node', [BIN, 'serve', '--db', db, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', () => {
        const m = /endpoint: (http:\/\/[^/]+)\//.exec(err);
        if (m) resolve(m[1]!);
      });
      setTimeout(() => reject(new Error(err)), 30_000);
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(err).toContain('SIGTERM: finishing requests in flight, closing the database');
  }, 60_000);
});
