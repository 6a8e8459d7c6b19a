// The SQLite replay record keeps every entry inside its window, however many come after it (the
// in-memory store let a request inside its window through after 200,000 others), and prunes the
// expired ones.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/reference/sqlite/open.js';
import {
  REPLAY_PRUNE_INTERVAL_MS,
  REPLAY_WAL_BYTES,
  REPLAY_TABLE,
  SqliteReplayStore,
  openReplayDatabase,
  replayDigest,
  replayEntry,
} from '../../../src/reference/sqlite/replay-store.js';
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

describe('the SQLite replay record', () => {
  it('keeps every entry inside its window, however many come after it, and prunes expired ones', async () => {
    const db = openDatabase(join(dir, 'record.sqlite'));
    try {
      const store = new SqliteReplayStore(db);
      const now = Date.now();
      expect(await store.seen('first', now + 300_000, now)).toBe(false);
      db.exec('BEGIN');
      for (let i = 0; i < 210_000; i++) await store.seen(`k${i}`, now + 300_000, now);
      db.exec('COMMIT');
      expect(await store.seen('first', now + 300_000, now)).toBe(true);
      // Past the window: the entry may be used again, and the pruning removed every expired one.
      const later = now + 300_001 + 1_000;
      expect(await store.seen('first', later + 300_000, later)).toBe(false);
      expect(db.prepare('SELECT count(*) FROM replay_entry').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  }, 60_000);

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

  it('keeps the entries an earlier version wrote into the database itself', async () => {
    const path = join(dir, 'upgraded.sqlite');
    prepareDatabase(path, { seed: { events: 1, bookings: 1 } });
    const now = Date.now();
    const db = openDatabase(path, { migrate: false });
    db.prepare('INSERT INTO replay_record (digest, expires_at) VALUES (?, ?), (?, ?)').run(
      replayDigest('live'),
      now + 300_000,
      replayDigest('expired'),
      now - 1,
    );
    db.close();
    prepareDatabase(path); // the next start
    const store = SqliteStore.open(path);
    try {
      expect(await store.replay.seen('live', now + 300_000, now)).toBe(true);
      expect(await store.replay.seen('expired', now + 300_000, now)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('keeps the entries an earlier version wrote into its replay file', async () => {
    const path = join(dir, 'earlier.sqlite-replay');
    const now = Date.now();
    const earlier = openDatabase(path, { migrate: false });
    earlier.exec(REPLAY_TABLE);
    earlier
      .prepare('INSERT INTO replay_record (digest, expires_at) VALUES (?, ?), (?, ?)')
      .run(replayDigest('live'), now + 300_000, replayDigest('expired'), now - 1);
    earlier.close();
    const db = openReplayDatabase(path);
    try {
      const store = new SqliteReplayStore(db);
      expect(await store.seen('live', now + 300_000, now)).toBe(true);
      expect(await store.seen('expired', now + 300_000, now)).toBe(false);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck();
      expect(tables.all()).toEqual(['replay_entry']);
    } finally {
      db.close();
    }
  });

  // A commit per request, each entry on a page of its own (random digests as keys), was most of
  // the record's cost: now the requests of one turn of the event loop share a commit, and their
  // entries, in order of their window's end, share the table's last pages.
  it('commits the entries of one turn together, on a few pages of the log', async () => {
    const path = join(dir, 'grouped.sqlite-replay');
    const db = openReplayDatabase(path);
    const other = openReplayDatabase(path);
    try {
      const store = new SqliteReplayStore(db);
      const now = Date.now();
      let n = 0;
      const turn = (count: number, at = now) =>
        Promise.all(
          Array.from({ length: count }, () => store.seen(`k${n++}`, at + 300_000 + n, at)),
        );
      for (let i = 0; i < 50; i++) await turn(1_000); // a window already holding 50,000
      const wal = () => statSync(`${path}-wal`).size;
      const version = () => other.pragma('data_version', { simple: true }) as number;
      const [walBefore, versionBefore] = [wal(), version()];
      expect(await turn(64)).toEqual(Array.from({ length: 64 }, () => false));
      const frames = (wal() - walBefore) / (4096 + 24);
      expect(frames).toBeLessThanOrEqual(8); // a page per entry would be 64
      expect(version()).toBe(versionBefore + 1); // one commit
      // A replay inside the same turn as its original, and in the next turn: both refused.
      const again = [
        store.seen('twice', now + 300_000, now),
        store.seen('twice', now + 300_000, now),
      ];
      expect(await Promise.all(again)).toEqual([false, true]);
      expect(await store.seen('twice', now + 300_000, now)).toBe(true);
    } finally {
      other.close();
      db.close();
    }
  });

  // A turn's entries go in with one INSERT of all its rows (64 at most, then another); one entry
  // already there sends the whole turn again entry by entry. Batches of sizes across those
  // statements, replays anywhere.
  it.each([
    { given: { size: 1, replays: [0] } },
    { given: { size: 2, replays: [1] } },
    { given: { size: 37, replays: [] } },
    { given: { size: 37, replays: [0, 36] } },
    { given: { size: 64, replays: [33] } },
    { given: { size: 200, replays: [63, 64, 199] } },
  ])('refuses exactly the replays of a turn of $given.size', async ({ given }) => {
    const db = openReplayDatabase(
      join(dir, `batch-${given.size}-${given.replays.join('-')}.sqlite-replay`),
    );
    try {
      const store = new SqliteReplayStore(db);
      const now = Date.now();
      const key = (i: number) => (given.replays.includes(i) ? `earlier ${i}` : `new ${i}`);
      for (const i of given.replays) await store.seen(key(i), now + 300_000, now);
      const keys = Array.from({ length: given.size }, (_, i) => key(i));
      const seen = await Promise.all(keys.map((k) => store.seen(k, now + 300_000, now)));
      expect(seen).toEqual(keys.map((_, i) => given.replays.includes(i)));
      const count = db.prepare('SELECT count(*) FROM replay_entry').pluck();
      expect(count.get()).toBe(given.size);
    } finally {
      db.close();
    }
  });

  /** `db`, whose replay INSERT fails `times` times with `code` before it runs. */
  function failingInsert(db: Db, code: string, times: number): Db {
    let left = times;
    const prepare = (sql: string) => {
      const stmt = db.prepare(sql);
      if (!sql.startsWith('INSERT INTO replay_entry')) return stmt;
      return new Proxy(stmt, {
        get: (target, name) =>
          name !== 'run'
            ? (Reflect.get(target, name) as unknown)
            : (...args: unknown[]) => {
                if (left-- > 0) throw Object.assign(new Error(`injected ${code}`), { code });
                return target.run(...args);
              },
      });
    };
    return new Proxy(db, {
      get: (target, name) =>
        name === 'prepare' ? prepare : (Reflect.get(target, name) as unknown),
    });
  }

  // Every SQLITE_BUSY code means another connection holds a lock for now; only SQLITE_BUSY itself
  // was tried again, so SQLITE_BUSY_RECOVERY (a connection recovering the log after a crash)
  // answered Unavailable at once.
  describe.each([
    { given: 'SQLITE_BUSY', want: 'retried' },
    { given: 'SQLITE_BUSY_RECOVERY', want: 'retried' },
    { given: 'SQLITE_BUSY_SNAPSHOT', want: 'retried' },
    { given: 'SQLITE_IOERR', want: 'thrown' },
  ])('an insert failing with $given', ({ given, want }) => {
    it(`is ${want}`, async () => {
      const db = openReplayDatabase(join(dir, `failing-${given}.sqlite-replay`));
      try {
        const store = new SqliteReplayStore(failingInsert(db, given, 3));
        const now = Date.now();
        const seen = store.seen('a request', now + 300_000, now);
        if (want === 'retried') {
          expect(await seen).toBe(false);
          expect(await store.seen('a request', now + 300_000, now)).toBe(true);
        } else await expect(seen).rejects.toMatchObject({ code: given });
      } finally {
        db.close();
      }
    });
  });

  // Under steady load a writer always appends while the periodic checkpoint runs, so the WAL was
  // never restarted from its beginning: it grew by about 11 KB a request (870 MB in 20 s at 4,400
  // requests a second). Here a reader's snapshot at every checkpoint stands for those writers.
  it('keeps its write-ahead log bounded while writers never pause', async () => {
    const path = join(dir, 'steady.sqlite-replay');
    const db = openReplayDatabase(path);
    const reader = openReplayDatabase(path);
    try {
      const store = new SqliteReplayStore(db);
      let now = Date.now();
      let largest = 0;
      for (let round = 0, n = 0; round < 12; round++) {
        reader.exec('BEGIN');
        reader.prepare('SELECT count(*) FROM replay_entry').get();
        now += REPLAY_PRUNE_INTERVAL_MS; // this call prunes and checkpoints
        expect(await store.seen(`k${n++}`, now + 300_000, now)).toBe(false);
        reader.exec('COMMIT');
        for (let i = 0; i < 2_000; i++)
          expect(await store.seen(`k${n++}`, now + 300_000, now)).toBe(false);
        largest = Math.max(largest, statSync(`${path}-wal`).size);
      }
      expect(largest).toBeLessThan(2 * REPLAY_WAL_BYTES);
    } finally {
      reader.close();
      db.close();
    }
  }, 60_000);
});
