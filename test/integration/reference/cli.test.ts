// The operator commands: keys (create, list, revoke), tokens, seed, and a graceful stop of serve,
// on the tier's database (a SQLite file, or a PostgreSQL database in the pg tier).
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupKey } from '../../../src/reference/store/service-reads.js';
import {
  BACKEND,
  newDatabase,
  reader,
  withDatabase,
  type TestDatabase,
} from '../../support/backend.js';
import { openDatabase } from '../../../src/reference/sqlite/open.js';
import { PROJECT_ROOT } from '../../support/ir.js';

const BIN = join(PROJECT_ROOT, 'src/cli/bin.js');
let database: TestDatabase;
let db: string;
const evgenOn = async (target: string, ...args: string[]) =>
  (await promisify(execFile)('node', [BIN, ...args, '--db', target], { cwd: PROJECT_ROOT })).stdout;
const evgen = (...args: string[]) => evgenOn(db, ...args);

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

  // The seed writes in one transaction, on SQLite with a rollback journal and no fsync: killed
  // half-way, it leaves nothing behind, and the file is whole and in WAL mode once opened again.
  // (Its contacts, written on a second thread into a file of their own in TMPDIR, are left there.)
  it('a seed killed half-way leaves no rows behind', async () => {
    const other = await newDatabase();
    const tmp = mkdtempSync(join(tmpdir(), 'evgen-kill-'));
    try {
      const child = spawn(
        'node',
        [BIN, 'seed', '--db', other.target, '--events', '2', '--bookings', '400000'],
        {
          cwd: PROJECT_ROOT,
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, TMPDIR: tmp },
        },
      );
      let err = '';
      await new Promise<void>((resolve, reject) => {
        // Progress reaches a pipe every 20,000 bookings: the first is well inside the seed.
        child.stderr.on('data', (d: Buffer) => {
          if (/ 20000\/400000/.test((err += d.toString()))) resolve();
        });
        child.on('exit', () => reject(new Error(`the seed ended before it was killed: ${err}`)));
      });
      child.kill('SIGKILL');
      await once(child, 'exit');
      if (BACKEND === 'sqlite')
        expect(readdirSync(tmp).filter((f) => f.startsWith('evgen-seed-'))).toHaveLength(1);
      if (BACKEND === 'sqlite') {
        const reopened = openDatabase(other.target);
        try {
          expect(reopened.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
          expect(reopened.pragma('journal_mode', { simple: true })).toBe('wal');
        } finally {
          reopened.close();
        }
      }
      expect(await evgenOn(other.target, 'seed', '--events', '2', '--bookings', '20')).toMatch(
        /^seeded 2 events, 20 bookings/,
      );
      await withDatabase(other.target, async (handle) => {
        expect(await reader(handle).value('SELECT count(*) AS n FROM booking')).toBe(20);
      });
    } finally {
      await other.remove();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);

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
