// Start-up checks, reproduced first on the code that lacked them: two processes starting at once
// on a new file (one died with UNIQUE constraint failed: setting.key), a file with garbage in the
// middle (served /healthz 200 while every call was Internal), a read-only file (started, then
// every write was Internal); and /healthz saying what it checked.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventServiceClient } from '@evgen/event-management/client';
import { BUSY_TIMEOUT_MS, openDatabase } from '../../../src/reference/sqlite/open.js';
import { prepareDatabase } from '../../../src/reference/sqlite/startup.js';
import { serve, stop } from './serve-process.js';
import { ENDPOINT } from '../../support/requests.js';
import { completeClient } from '../../support/complete.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-startup-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const count = (db: string, sql: string) => {
  const h = openDatabase(db, { migrate: false, readOnly: true });
  try {
    return h.prepare(sql).pluck().get() as number;
  } finally {
    h.close();
  }
};

/** The file header's count of free pages (a 4-byte big-endian integer at offset 36). */
const FREELIST_COUNT = 36;

describe('start-up', () => {
  it('serialises two first starts on one new file: one seeds, both serve', async () => {
    const db = join(dir, 'together.sqlite');
    const [a, b] = [serve(db, '--workers', '1'), serve(db, '--workers', '1')];
    try {
      const [ra, rb] = await Promise.all([a.ready, b.ready]);
      expect([ra.key, rb.key].filter(Boolean)).toHaveLength(1); // exactly one seeded
      for (const { url } of [ra, rb]) expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(count(db, 'SELECT count(*) FROM event')).toBe(36);
      expect(count(db, "SELECT count(*) FROM api_key WHERE name = 'demo'")).toBe(1);
    } finally {
      await Promise.all([stop(a), stop(b)]);
    }
  }, 120_000);

  it('waits for a file another process holds locked past the busy time-out, never calling it damaged', async () => {
    // CI once saw two serves started together on one new file: one exited with "is damaged
    // (database is locked)". A lock held longer than SQLite's busy time-out reproduces it.
    const db = join(dir, 'locked.sqlite');
    const holder = await holdLock(db, BUSY_TIMEOUT_MS + 1_500);
    const p = serve(db, '--workers', '0');
    try {
      const { key } = await p.ready;
      expect(key).toBeDefined(); // it seeded the file once the lock was gone
      expect(count(db, 'SELECT count(*) FROM event')).toBe(36);
    } finally {
      await stop(p);
      holder.kill();
    }
  }, 60_000);

  it('answers "starting" while it prepares its database, /healthz included', async () => {
    // Before, the preparation ran on the request loop: the port was bound, but nothing was
    // answered, /healthz included, until the database was ready.
    const db = join(dir, 'starting.sqlite');
    const holder = await holdLock(db, 4_000); // the preparation waits for it
    const port = await freePort();
    const p = serve(db, '--workers', '0', '--port', String(port));
    const base = `http://127.0.0.1:${port}`;
    try {
      const health = await firstAnswer(`${base}/healthz`);
      expect(health).toEqual({ status: 503, body: '{"status":"starting"}' });
      const call = await firstAnswer(`${base}${ENDPOINT}/GetEventDetails7?eventId=1`);
      expect(call).toEqual({
        status: 503,
        body: 'Unavailable: starting: the service is preparing its database\n',
      });
      const { url } = await p.ready;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      await stop(p); // its log written out
      // Logged and counted like any answer.
      const refused = p
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.operation === 'GetEventDetails7');
      expect(refused).toContainEqual(
        expect.objectContaining({
          status: 503,
          faultCode: 'Unavailable',
          error: expect.objectContaining({
            message: 'starting: the service is preparing its database',
          }) as object,
        }),
      );
    } finally {
      await stop(p);
      holder.kill();
    }
  }, 60_000);

  it('names a file another process holds locked past the wait: in use, not damaged', async () => {
    const db = join(dir, 'held.sqlite');
    const holder = await holdLock(db, 60_000);
    try {
      // Waited out no longer than the busy time-out (the service waits SEED_WAIT_MS).
      expect(() => prepareDatabase(db, { lockWaitMs: 0 })).toThrow(
        new RegExp(
          `^database ${db} is in use by another process, which held its lock for \\d+ s \\(database is locked\\): stop that process, or start again once it is done$`,
        ),
      );
    } finally {
      holder.kill();
    }
  }, 30_000);

  it('refuses a damaged file with a clear message', async () => {
    const db = join(dir, 'damaged.sqlite');
    const first = serve(db, '--workers', '0');
    await first.ready;
    await stop(first); // the WAL is checkpointed on close: the file is the whole database
    const cases = [
      {
        // quick_check itself fails on it ("database disk image is malformed")
        given: '200 KB of garbage in the middle',
        damage: (file: Buffer) =>
          file.fill(0x5a, file.length >> 1, (file.length >> 1) + 200 * 1024),
        want: /is damaged \(.+\)/,
      },
      {
        // quick_check answers with a finding (every read still works: only the check sees it)
        given: 'a header counting 7 free pages more than the file has',
        damage: (file: Buffer) =>
          file.writeUInt32BE(file.readUInt32BE(FREELIST_COUNT) + 7, FREELIST_COUNT),
        want: /is damaged \(.*Freelist: size is \d+ but should be \d+/,
      },
    ];
    for (const c of cases) {
      const copy = join(dir, `damaged-${cases.indexOf(c)}.sqlite`);
      const file = readFileSync(db);
      c.damage(file);
      writeFileSync(copy, file);
      const again = serve(copy, '--workers', '0');
      const outcome = await Promise.race([again.exited, again.ready.then(() => 'served')]);
      if (outcome === 'served') await stop(again);
      expect(outcome, c.given).toBe(1);
      expect(again.stderr(), c.given).toMatch(/database .*damaged-\d\.sqlite is damaged/);
      expect(again.stderr(), c.given).toMatch(c.want);
    }
  }, 120_000);

  it('refuses a read-only file, and serves it reads-only with --read-only', async () => {
    const db = join(dir, 'readonly.sqlite');
    const first = serve(db, '--workers', '0');
    const { key } = await first.ready;
    await stop(first);
    const locked = makeReadOnly(db);
    try {
      const refused = serve(db, '--workers', '0');
      expect(await refused.exited).toBe(1);
      expect(refused.stderr()).toMatch(/is read-only; .*--read-only/);

      const reader = serve(db, '--read-only', '--workers', '1');
      const { url } = await reader.ready;
      try {
        const client = completeClient(new EventServiceClient({ baseUrl: url, ...key! }));
        expect((await client.getEventDetails7({ eventId: 1 })).EventId).toBe(1);
        await expect(client.cancelBooking({ bookingReference: 'x' })).rejects.toMatchObject({
          code: 'InvalidRequest',
          faultString: 'read-only service',
        });
        const health = (await (await fetch(`${url}/healthz`)).json()) as { status: string };
        expect(health.status).toBe('ok');
      } finally {
        await stop(reader);
      }
    } finally {
      locked.undo();
    }
  }, 120_000);

  it('refuses a port in use before it creates or seeds anything', async () => {
    // Before, a new database was created and seeded with 3,000 bookings, then not served.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const db = join(dir, 'port-taken', 'events.sqlite');
    try {
      const p = serve(db, '--port', String(port), '--workers', '0');
      expect(await p.exited).toBe(1);
      expect(p.stderr()).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(existsSync(db)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);

  describe('names the cause of a database it cannot open, never calling it damaged', () => {
    const cases = [
      {
        given: 'a new file in a folder it may not write',
        setUp: (d: string) => ({ db: join(d, 'events.sqlite'), locked: [d] }),
        want: (d: string) =>
          new RegExp(`permission denied on folder ${d} \\(E(PERM|ACCES)\\): give the user`),
      },
      {
        given: 'a missing folder under a folder it may not write',
        setUp: (d: string) => ({ db: join(d, 'missing', 'events.sqlite'), locked: [d] }),
        want: (d: string) =>
          new RegExp(
            `folder ${d}/missing does not exist and cannot be made: permission denied on folder ${d} `,
          ),
      },
      {
        given: 'a database in a folder it may not write (SQLite writes -wal and -shm beside it)',
        setUp: (d: string) => ({ db: join(d, 'events.sqlite'), locked: [d], existing: true }),
        want: (d: string) =>
          new RegExp(`permission denied on folder ${d} \\(E(PERM|ACCES)\\): .*-wal and -shm`),
      },
      {
        given: '--read-only under a missing folder',
        setUp: (d: string) => ({
          db: join(d, 'missing', 'events.sqlite'),
          locked: [],
          args: ['--read-only'],
        }),
        want: (d: string) =>
          new RegExp(
            `no database at ${d}/missing/events.sqlite: folder ${d}/missing does not exist`,
          ),
      },
      {
        given: '--read-only without the file',
        setUp: (d: string) => ({ db: join(d, 'events.sqlite'), locked: [], args: ['--read-only'] }),
        want: (d: string) =>
          new RegExp(`no database at ${d}/events.sqlite: --read-only serves an existing database`),
      },
    ];
    it.each(cases)(
      '$given',
      async (c) => {
        const d = await mkdtemp(join(dir, 'cause-'));
        const {
          db,
          locked,
          existing,
          args = [],
        } = {
          existing: false,
          args: [] as string[],
          ...c.setUp(d),
        };
        if (existing) {
          const first = serve(db, '--workers', '0');
          await first.ready;
          await stop(first);
          for (const f of [`${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
        }
        const undo = locked.map(lockFolder);
        try {
          const p = serve(db, '--workers', '0', ...args);
          const outcome = await Promise.race([p.exited, p.ready.then(() => 'served')]);
          if (outcome === 'served') await stop(p);
          expect(outcome).toBe(1);
          expect(p.stderr()).not.toMatch(/damaged/);
          expect(p.stderr()).toMatch(c.want(d));
        } finally {
          for (const u of undo) u();
        }
      },
      60_000,
    );
  });

  it('reports the database and the workers at /healthz', async () => {
    const db = join(dir, 'health.sqlite');
    const p = serve(db, '--workers', '1');
    const { url } = await p.ready;
    try {
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
      // Statuses only (issue 38): the counts and the schema version are the operator's.
      expect(await res.json()).toEqual({
        status: 'ok',
        database: 'ok',
        workers: { quick: 'ok', bulk: 'ok' },
      });
    } finally {
      await stop(p);
    }
  }, 120_000);
});

/** A port nothing listens on (just now). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The first answer `url` gives within 10 s, asking again each time one is refused or late. */
async function firstAnswer(url: string): Promise<{ status: number; body: string }> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(500) });
      return { status: res.status, body: await res.text() };
    } catch {
      await new Promise((r) => setTimeout(r, 50)); // not listening yet, or not answering
    }
  }
  throw new Error(`${url} gave no answer within 10 s`);
}

/**
 * A process holding an exclusive lock on a new database at `db` for `ms`, once it holds it (a
 * lock SQLite's busy time-out gives up on).
 */
async function holdLock(db: string, ms: number) {
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('better-sqlite3'))(${JSON.stringify(db)});
       db.exec('CREATE TABLE held (x)'); db.exec('BEGIN EXCLUSIVE'); db.exec('INSERT INTO held VALUES (1)');
       process.stdout.write('locked\\n');
       setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`,
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => holder.stdout.once('data', resolve));
  return holder;
}

/** Makes a folder unwritable for this process: immutable for root (chattr), mode 0555 otherwise. */
function lockFolder(dir: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', dir]);
    return () => execFileSync('chattr', ['-i', dir]);
  }
  chmodSync(dir, 0o555);
  return () => chmodSync(dir, 0o755);
}

/** Makes a database read-only for this process: immutable for root (chattr), mode 0444 otherwise. */
function makeReadOnly(db: string): { undo(): void } {
  const files = [db, `${db}-wal`, `${db}-shm`].filter((f) => {
    try {
      return readFileSync(f) !== undefined;
    } catch {
      return false;
    }
  });
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', ...files]);
    return { undo: () => execFileSync('chattr', ['-i', ...files]) };
  }
  for (const f of files) chmodSync(f, 0o444);
  return { undo: () => files.forEach((f) => chmodSync(f, 0o644)) };
}
