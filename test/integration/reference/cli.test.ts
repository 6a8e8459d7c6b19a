// The operator commands: keys (create, list, revoke), tokens, seed, and a graceful stop of serve,
// on the tier's database (a SQLite file, or a PostgreSQL database in the pg tier).
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupKey } from '../../../src/reference/store/service-reads.js';
import { newDatabase, withDatabase, type TestDatabase } from '../../support/backend.js';
import { PROJECT_ROOT } from '../../support/ir.js';

const BIN = join(PROJECT_ROOT, 'src/cli/bin.js');
let database: TestDatabase;
let db: string;
const evgen = async (...args: string[]) =>
  (await promisify(execFile)('node', [BIN, ...args, '--db', db], { cwd: PROJECT_ROOT })).stdout;

beforeAll(async () => {
  database = await newDatabase();
  db = database.target;
});
afterAll(() => database.remove());

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
    await withDatabase(db, async (handle) => {
      expect(await handle.run(lookupKey(key.apiKey))).toEqual({
        secret: key.secretKey,
        name: 'integrator',
      });
      expect(await evgen('keys', 'revoke', key.apiKey)).toContain('revoked');
      expect(await handle.run(lookupKey(key.apiKey))).toBeUndefined();
    });
    await expect(evgen('keys', 'revoke', key.apiKey)).rejects.toThrow(/no active key/);
    await expect(evgen('seed', '--events', '2', '--bookings', '10')).rejects.toThrow(
      /already holds demo data/,
    );
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
