// The replay record beside a SQLite database: an entry's bytes (what files written by any version
// hold), written without a commit to the database, and the entries earlier versions kept in SQLite
// (the database's table, then a file of its own) moved into the log at start-up.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/reference/sqlite/open.js';
import { REPLAY_TABLE } from '../../../src/reference/sqlite/migrations.js';
import { replayFileOf } from '../../../src/reference/sqlite/replay-store.js';
import { replayDigest, replayEntry } from '../../../src/reference/replay-log/entry.js';
import { SqliteStore } from '../../../src/reference/sqlite/store.js';
import { prepareDatabase } from '../../../src/reference/sqlite/startup.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-replay-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a replay entry's bytes (what files written by any version hold)", () => {
  // The window's end in ms, 8 bytes big-endian, then the first 8 bytes of the key's SHA-256.
  const layout = (key: string, ms: number) => {
    const end = Buffer.alloc(8);
    end.writeBigUInt64BE(BigInt(ms));
    return Buffer.concat([end, createHash('sha256').update(key).digest().subarray(0, 8)]);
  };
  it.each([0, 2 ** 32 - 1, 2 ** 32, 1_764_331_200_000, Number.MAX_SAFE_INTEGER])(
    'ends at %d ms',
    (ms) =>
      expect(replayEntry('k|2026-11-28T12:00:00.000Z|Op|sig', ms)).toEqual(
        layout('k|2026-11-28T12:00:00.000Z|Op|sig', ms),
      ),
  );
  it.each(['', 'cl\u00e9\u0000Op\u00002026-11-28T12:00:00.000Z', '\u{1F511}\u0000\uFFFD'])(
    'holds the digest of key %j (UTF-8)',
    (key) => expect(replayEntry(key, 1_764_331_200_000)).toEqual(layout(key, 1_764_331_200_000)),
  );
  it.each(['', 'k|2026-11-28T12:00:00.000Z|Op|sig', 'cl\u00e9\u0000\u{1F511}'])(
    "holds key %j's record key (PostgreSQL's, and the earlier table's): its SHA-256's first 16 bytes",
    (key) =>
      expect(replayDigest(key)).toEqual(createHash('sha256').update(key).digest().subarray(0, 16)),
  );
  it.each([-1, 1.5, Number.NaN, 2 ** 53])('refuses %d ms as a window end', (ms) =>
    expect(() => replayEntry('k', ms)).toThrow(RangeError),
  );
});

describe('the replay record beside a SQLite database', () => {
  // Every commit to a database file resets the page cache of every connection reading it: with
  // the record in the database itself, each request (a read too) made every worker read its pages
  // again (a small call cost nearly twice as much).
  it('is written without committing to the database the operations read', async () => {
    const path = join(dir, 'own-file.sqlite');
    prepareDatabase(path, { seed: { events: 1, bookings: 1 } });
    const store = SqliteStore.open(path);
    const reader = openDatabase(path, { migrate: false });
    try {
      const version = () => reader.pragma('data_version', { simple: true }) as number;
      const before = version();
      const now = Date.now();
      expect(await store.replay.seen('a request', now + 300_000, now)).toBe(false);
      expect(version()).toBe(before);
      expect(await store.replay.seen('a request', now + 300_000, now)).toBe(true);
    } finally {
      reader.close();
      await store.close();
    }
  });

  /** An earlier version's start on `path`: its record's entries, live and expired, written by `write`. */
  async function upgraded(name: string, write: (path: string, now: number) => void) {
    const path = join(dir, name);
    prepareDatabase(path, { seed: { events: 1, bookings: 1 } });
    const now = Date.now();
    write(path, now);
    prepareDatabase(path); // the next start
    const store = SqliteStore.open(path);
    try {
      expect(await store.replay.seen('live', now + 300_000, now)).toBe(true);
      expect(await store.replay.seen('expired', now + 300_000, now)).toBe(false);
    } finally {
      await store.close();
    }
    return path;
  }

  it('keeps the entries an earlier version wrote into the database itself', async () => {
    const path = await upgraded('in-database.sqlite', (path, now) => {
      const db = openDatabase(path, { migrate: false });
      db.prepare('INSERT INTO replay_record (digest, expires_at) VALUES (?, ?), (?, ?)').run(
        replayDigest('live'),
        now + 300_000,
        replayDigest('expired'),
        now - 1,
      );
      db.close();
    });
    const db = openDatabase(path, { migrate: false });
    expect(db.prepare('SELECT count(*) FROM replay_record').pluck().get()).toBe(0);
    db.close();
  });

  it.each([
    {
      given: 'table replay_record',
      write: (file: string, now: number) => {
        const earlier = openDatabase(file, { migrate: false });
        earlier.exec(REPLAY_TABLE);
        earlier
          .prepare('INSERT INTO replay_record (digest, expires_at) VALUES (?, ?), (?, ?)')
          .run(replayDigest('live'), now + 300_000, replayDigest('expired'), now - 1);
        earlier.close();
      },
    },
    {
      given: 'table replay_entry',
      write: (file: string, now: number) => {
        const earlier = openDatabase(file, { migrate: false });
        earlier.exec('CREATE TABLE replay_entry (entry BLOB PRIMARY KEY) WITHOUT ROWID');
        earlier
          .prepare('INSERT INTO replay_entry (entry) VALUES (?), (?)')
          .run(replayEntry('live', now + 300_000), replayEntry('expired', now - 1));
        earlier.close();
      },
    },
  ])(
    'keeps the entries an earlier version wrote into its replay file ($given)',
    async ({ given, write }) => {
      const path = await upgraded(`file-${given.replace(' ', '-')}.sqlite`, (path, now) =>
        write(replayFileOf(path), now),
      );
      expect(existsSync(replayFileOf(path))).toBe(false);
    },
  );
});
