// The SQLite store's read cache (src/reference/sqlite/read-cache.ts): single-record reads (event
// details, a booking, its summary, a contact) are answered from memory only while nothing was
// committed since they were read, by this connection or any other; the cache is bounded in entries
// and in the size of each, keeps nothing for what was not found, and what it hands out cannot be
// changed by whoever gets it. API keys are kept the same way, unknown ones too (a refusal takes
// as long as an answer); revoked elsewhere, refused at the next call. One check of the database's
// version, made after the calls that wait for it, serves every read of a turn of the event loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../src/reference/sqlite/open.js';
import {
  MISS,
  READ_CACHE_ENTRY_BYTES,
  ReadCache,
  sizeWithin,
} from '../../../src/reference/sqlite/read-cache.js';
import { SqliteStore } from '../../../src/reference/sqlite/store.js';
import { seed } from '../../../src/reference/seed/index.js';

let dir: string;
let store: SqliteStore;
/** Another connection to the same file: a worker thread, another process, `evgen keys`. */
let other: Db;
const EVENT = 1;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'evgen-read-cache-'));
  const path = join(dir, 'events.sqlite');
  const db = openDatabase(path);
  seed(db, { events: 3, bookings: 60 });
  db.close();
  store = SqliteStore.open(path);
  other = openDatabase(path);
});
afterAll(async () => {
  other.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const details = async () => (await store.eventDetails(EVENT, true))!;
const attending = async () => (await details()).event.attending;
/** An attendee of EVENT still attending, by reference. */
const attendingReference = () =>
  other
    .prepare(
      `SELECT a.reference FROM attendee a JOIN booking b ON b.id = a.booking_id
       JOIN attendee_status s ON s.id = a.status_id
       WHERE b.event_id = ? AND s.status_type = 'Attending' LIMIT 1`,
    )
    .pluck()
    .get(EVENT) as string;

describe('read cache', () => {
  it('answers a repeated read from memory: no statement of the read runs again', async () => {
    const first = await details();
    const statements = vi.spyOn(store.sql, 'cached');
    try {
      expect(await details()).toBe(first);
      expect(statements).not.toHaveBeenCalled();
    } finally {
      statements.mockRestore();
    }
  });

  // Every single-record read is kept: the second answer is the same value, and reads nothing.
  const email = () => other.prepare('SELECT email FROM contact LIMIT 1').pluck().get() as string;
  it.each([
    { given: 'event details', read: () => store.eventDetails(EVENT, false) },
    { given: 'a booking', read: () => store.booking(1) },
    { given: "a booking's summary", read: () => store.bookingSummary(1) },
    { given: 'a contact by email', read: () => store.contactByEmail(email()) },
  ])('keeps $given: read again from memory until something is committed', async ({ read }) => {
    const first = await read();
    expect(first).toBeDefined();
    const statements = vi.spyOn(store.sql, 'cached');
    try {
      expect(await read()).toBe(first);
      expect(statements).not.toHaveBeenCalled();
      // Any commit, to any table: the next read reads again, and finds the same record.
      other
        .prepare(
          "INSERT INTO setting (key, value) VALUES ('read-cache-test', 'x') ON CONFLICT DO UPDATE SET value = value || 'x'",
        )
        .run();
      const after = await read();
      expect(statements).toHaveBeenCalled();
      expect(after).not.toBe(first);
      expect(after).toEqual(first);
    } finally {
      statements.mockRestore();
    }
  });

  it('keeps each record under its own key: two bookings, summaries, contacts stay apart', async () => {
    const emails = other.prepare('SELECT email FROM contact ORDER BY id LIMIT 2').pluck().all();
    const pairs = [
      [await store.booking(1), await store.booking(2)],
      [await store.bookingSummary(1), await store.bookingSummary(2)],
      [
        await store.contactByEmail(emails[0] as string),
        await store.contactByEmail(emails[1] as string),
      ],
    ];
    // Read again (kept): each still its own.
    const again = [
      [await store.booking(1), await store.booking(2)],
      [await store.bookingSummary(1), await store.bookingSummary(2)],
      [
        await store.contactByEmail(emails[0] as string),
        await store.contactByEmail(emails[1] as string),
      ],
    ];
    for (const [a, b] of again) expect(a).not.toEqual(b);
    expect(again).toEqual(pairs);
  });

  it('keeps no value past READ_CACHE_ENTRY_BYTES: a large record is read each time', async () => {
    const cache = new ReadCache(other, 3);
    const reads = await cache.fresh();
    const v = cache.version();
    const small = { bio: 'x'.repeat(100) };
    const large = { bio: 'x'.repeat(READ_CACHE_ENTRY_BYTES / 2) };
    expect(cache.keep('small', v, small)).toBe(small);
    expect(cache.keep('large', v, large)).toBe(large);
    expect(reads.lookup('small')).toBe(small);
    expect(reads.lookup('large')).toBe(MISS);
    expect(Object.isFrozen(large)).toBe(false);
  });

  it.each([
    { given: 'x'.repeat(100), limit: 1000, want: true },
    { given: 'x'.repeat(1000), limit: 1000, want: false },
    { given: Array.from({ length: 100 }, () => ({ a: 1 })), limit: 1000, want: false },
    { given: Array.from({ length: 10 }, () => ({ a: 1 })), limit: 1000, want: true },
    { given: { deep: { deeper: { text: 'y'.repeat(600) } } }, limit: 1000, want: false },
  ])('counts a value against its limit (sizeWithin $limit: $want)', ({ given, limit, want }) =>
    expect(sizeWithin(given, limit)).toBe(want),
  );

  const commits: { given: string; commit: () => unknown }[] = [
    {
      given: 'another connection commits',
      commit: () =>
        other
          .prepare(
            'UPDATE attendee SET status_id = (SELECT id FROM attendee_status WHERE status_type = ? LIMIT 1) WHERE reference = ?',
          )
          .run('Cancelled', attendingReference()),
    },
    {
      given: 'this connection commits (a write of the store)',
      commit: () => store.cancelAttendee(attendingReference()),
    },
  ];
  it.each(commits)('reads again once $given', async ({ commit }) => {
    const before = await attending();
    await attending(); // kept
    await commit();
    expect(await attending()).toBe(before - 1);
  });

  it('sees a change made under a title the cache had read', async () => {
    await details();
    other.prepare('UPDATE event SET title = ? WHERE id = ?').run('Renamed elsewhere', EVENT);
    expect((await details()).event.title).toBe('Renamed elsewhere');
  });

  it('waits for a transaction holding the connection: never reads, nor keeps, what it rolls back', async () => {
    const title = (await details()).event.title;
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const held = store.bookingTransaction(async () => {
      store.db.prepare('UPDATE event SET title = ? WHERE id = ?').run('not committed', EVENT);
      await gate;
      throw new Error('rolled back');
    });
    let answered = false;
    const during = details().then((d) => ((answered = true), d));
    try {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(answered).toBe(false);
    } finally {
      release(); // whatever happened, the transaction ends: the store can close
    }
    await expect(held).rejects.toThrow('rolled back');
    expect((await during).event.title).toBe(title);
    expect((await details()).event.title).toBe(title);
  });

  it('hands out frozen values: a caller cannot change what the next one gets', async () => {
    const d = await details();
    expect(() => {
      (d.event as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    expect(() => d.venues.push(1)).toThrow(TypeError);
  });

  it('sees a key revoked or created by another connection (evgen keys) on the next call', async () => {
    const [apiKey, secret] = ['ak_read_cache', 'a-secret-of-the-read-cache-test'];
    expect(await store.lookupKey(apiKey)).toBeUndefined();
    other
      .prepare(
        "INSERT INTO api_key (name, api_key, secret, created) VALUES ('cached', ?, ?, '2026-01-01T00:00:00Z')",
      )
      .run(apiKey, secret);
    expect(await store.lookupKey(apiKey)).toEqual({ secret, name: 'cached' });
    expect(await store.lookupKey(apiKey)).toEqual({ secret, name: 'cached' }); // kept
    other
      .prepare("UPDATE api_key SET revoked_at = '2026-01-02T00:00:00Z' WHERE api_key = ?")
      .run(apiKey);
    expect(await store.lookupKey(apiKey)).toBeUndefined();
  });

  it('checks the version once for every read waiting in one turn, after they were called', async () => {
    await Promise.all([details(), store.lookupKey('ak_unknown')]); // kept
    const checks = vi.spyOn(store.cache!, 'version');
    try {
      const reads = [details(), details(), store.lookupKey('ak_unknown'), details()];
      expect(checks).not.toHaveBeenCalled(); // not before the calls: after them, once
      await Promise.all(reads);
      await new Promise((turn) => setImmediate(turn)); // any check scheduled for them has run
      expect(checks).toHaveBeenCalledTimes(1);
    } finally {
      checks.mockRestore();
    }
  });

  it('keeps an unknown API key like a known one: the second lookup of either runs no statement', async () => {
    other
      .prepare(
        "INSERT INTO api_key (name, api_key, secret, created) VALUES ('known', 'ak_known', 's', '2026-01-01T00:00:00Z')",
      )
      .run();
    const keys = ['ak_known', 'ak_never_issued'];
    await Promise.all(keys.map((k) => store.lookupKey(k)));
    const statements = vi.spyOn(store.sql, 'cached');
    try {
      for (const k of keys) await store.lookupKey(k);
      expect(statements).not.toHaveBeenCalled();
    } finally {
      statements.mockRestore();
    }
  });

  it('reads a key of unusual length each time: a client cannot fill memory with long keys', async () => {
    const long = `ak_${'x'.repeat(1000)}`;
    await store.lookupKey(long);
    const statements = vi.spyOn(store.sql, 'cached');
    try {
      expect(await store.lookupKey(long)).toBeUndefined();
      expect(statements).toHaveBeenCalled();
    } finally {
      statements.mockRestore();
    }
  });

  it('keeps nothing for what was not found: ids of nothing cannot push out what was', async () => {
    await details();
    const size = store.cache!.size;
    for (let i = 1; i <= 50; i++) expect(await store.eventDetails(1e6 + i, true)).toBeUndefined();
    expect(store.cache!.size).toBe(size);
  });

  it('keeps at most its bound, dropping the least recently used', async () => {
    const cache = new ReadCache(other, 3);
    const reads = await cache.fresh();
    const v = cache.version();
    for (const k of ['a', 'b', 'c']) cache.keep(k, v, k);
    expect(reads.lookup('a')).toBe('a'); // used: now the most recent
    cache.keep('d', v, 'd');
    expect(cache.size).toBe(3);
    expect(reads.lookup('b')).toBe(MISS);
    expect(['a', 'c', 'd'].map((k) => reads.lookup(k))).toEqual(['a', 'c', 'd']);
  });
});
