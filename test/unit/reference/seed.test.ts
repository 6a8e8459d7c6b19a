// Migrations are versioned and idempotent; demo data is deterministic and sized by its flags.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../src/reference/sqlite/open.js';
import { MIGRATIONS } from '../../../src/reference/sqlite/migrations.js';
import {
  LIVE_EVENT_COUNTS,
  LIVE_TICKET_COUNTS,
} from '../../../src/reference/sqlite/attendee-counts.js';
import { ContactsAside } from '../../../src/reference/seed/aside.js';
import { seed, seedFile } from '../../../src/reference/seed/index.js';
import { CONTACT_DRAWS, seedContacts } from '../../../src/reference/seed/people.js';
import { Rng } from '../../../src/reference/seed/rng.js';
import fc from 'fast-check';

const TABLES = [
  'event',
  'attendee_type',
  'ticket_type',
  'bookable_session',
  'show_performance',
  'custom_field',
  'attendee_status',
  'speaker_series',
  'contact',
  'contact_profile_value',
  'booking',
  'attendee',
  'attendee_day',
  'attendee_custom_value',
  'session_signup',
  'reservation',
  'submission',
  'event_website',
  'event_collaborator',
];

function digest(db: Db): string {
  const h = createHash('sha256');
  for (const t of TABLES)
    h.update(JSON.stringify(db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()));
  return h.digest('hex');
}

describe('database', () => {
  it('applies each migration once', () => {
    const db = openDatabase(':memory:');
    expect(db.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(
      MIGRATIONS.map((_, i) => i + 1),
    );
    expect(migrate(db)).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('seeds the same data for the same seed, other data for another', () => {
    const [a, b, c] = [
      openDatabase(':memory:'),
      openDatabase(':memory:'),
      openDatabase(':memory:'),
    ];
    seed(a, { events: 8, bookings: 300 });
    seed(b, { events: 8, bookings: 300 });
    seed(c, { events: 8, bookings: 300, seed: 2 });
    expect(digest(a)).toBe(digest(b));
    expect(digest(a)).not.toBe(digest(c));
  });

  it('is sized by its flags and fills every table', () => {
    const db = openDatabase(':memory:');
    const progress: number[] = [];
    expect(
      seed(db, { events: 5, bookings: 4321, onProgress: (done) => progress.push(done) }),
    ).toEqual({ events: 5, bookings: 4321, contacts: 2161 });
    expect(db.prepare('SELECT count(*) FROM event').pluck().get()).toBe(5);
    expect(db.prepare('SELECT count(*) FROM booking').pluck().get()).toBe(4321);
    expect(progress.at(-1)).toBe(4321);
    for (const t of TABLES)
      expect(db.prepare(`SELECT count(*) FROM ${t}`).pluck().get(), t).toBeGreaterThan(0);
    expect(() => seed(db)).toThrow(/already holds demo data/);
  });

  // Bookings with no event to book crashed half-way ("Cannot read properties of undefined
  // (reading 'tickets')"); sizes that are not whole numbers were taken as they came.
  it.each([
    { given: { events: 0, bookings: 10 }, want: '10 bookings need at least one event' },
    { given: { events: -1, bookings: 0 }, want: 'events: -1 is not a whole number of at least 0' },
    {
      given: { events: 2, bookings: 1.5 },
      want: 'bookings: 1.5 is not a whole number of at least 0',
    },
  ])('refuses $given before writing anything: $want', async ({ given, want }) => {
    const db = openDatabase(':memory:');
    expect(() => seed(db, given)).toThrow(new RangeError(want));
    await expect(seedFile(db, given)).rejects.toThrow(new RangeError(want));
    expect(db.prepare('SELECT count(*) FROM contact').pluck().get()).toBe(0);
  });

  it('seeds an empty catalogue: no events, no bookings', () => {
    expect(seed(openDatabase(':memory:'), { events: 0, bookings: 0 })).toEqual({
      events: 0,
      bookings: 0,
      contacts: 50,
    });
  });

  // The seed writes with foreign keys off, its tables' indexes set aside and the attendee counts
  // tallied by itself: what it leaves must be what checking every row would have left.
  it('leaves rows whose keys hold, the counts of its rows, the schema it found', () => {
    const schema = (db: Db) =>
      db
        .prepare(
          "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name",
        )
        .all();
    const db = openDatabase(':memory:');
    const before = schema(db);
    seed(db, { events: 7, bookings: 700 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(schema(db)).toEqual(before);
    for (const [stored, live] of [
      [
        'SELECT event_id, status_type, n FROM event_attendee_count ORDER BY 1, 2',
        LIVE_EVENT_COUNTS,
      ],
      [
        'SELECT ticket_type_id, status_type, n FROM ticket_attendee_count ORDER BY 1, 2',
        LIVE_TICKET_COUNTS,
      ],
    ]) {
      const counts = db.prepare(live!).raw().all();
      expect(counts.length).toBeGreaterThan(7);
      expect(db.prepare(stored!).raw().all()).toEqual(counts);
    }
  });

  // A rollback journal needs the file to itself; with another connection on it, the seed keeps
  // the WAL rather than fail with "database is locked".
  it('seeds a file another connection holds open', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evgen-seed-'));
    const [holder, db] = [openDatabase(join(dir, 'e.sqlite')), openDatabase(join(dir, 'e.sqlite'))];
    try {
      holder.prepare('SELECT count(*) FROM event').get();
      expect(seed(db, { events: 2, bookings: 20 })).toMatchObject({ bookings: 20 });
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(holder.prepare('SELECT count(*) FROM booking').pluck().get()).toBe(20);
    } finally {
      holder.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores only salted password hashes', () => {
    const db = openDatabase(':memory:');
    seed(db, { events: 2, bookings: 10 });
    const c = db.prepare('SELECT * FROM contact WHERE id = 1').get() as Record<string, string>;
    expect(JSON.stringify(c)).not.toContain('demo-password');
    expect(c.password_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

// `evgen seed` writes contacts on a worker thread into a file of its own, then copies them in
// (seed/aside.ts): the rows must be the very ones seed() writes on one thread.
describe('seedFile: contacts on a second thread', () => {
  /** Runs `f` with TMPDIR pointing at a new folder, so what the seed leaves in it can be seen. */
  async function withTmp<T>(f: (tmp: string) => Promise<T>): Promise<T> {
    const tmp = mkdtempSync(join(tmpdir(), 'evgen-seed-test-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      return await f(tmp);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  it('seeds the rows seed() does, and leaves no file or attachment of its own', async () => {
    const options = { events: 6, bookings: 900 };
    const memory = openDatabase(':memory:');
    seed(memory, options);
    await withTmp(async (tmp) => {
      const db = openDatabase(join(tmp, 'e.sqlite'));
      try {
        // asideFrom 0: the second thread whatever the size (by default from 50,000 contacts).
        expect(await seedFile(db, options, 0)).toEqual({ ...options, contacts: 450 });
        expect(digest(db)).toBe(digest(memory));
        // (tsx, which runs the worker from the sources, keeps its cache there too)
        expect(
          readdirSync(tmp)
            .filter((f) => f !== 'tsx-0')
            .sort(),
        ).toEqual(['e.sqlite', 'e.sqlite-shm', 'e.sqlite-wal']);
        expect((db.pragma('database_list') as { name: string }[]).map((d) => d.name)).toEqual([
          'main',
        ]);
        expect(db.pragma('foreign_key_check')).toEqual([]);
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      } finally {
        db.close();
      }
    });
  });

  it('fails, and removes its file, when the thread writing contacts fails', async () => {
    await withTmp(async (tmp) => {
      // A database without the contact table: the worker's SQL fails, and says so.
      const db = new (await import('better-sqlite3')).default(join(tmp, 'bare.sqlite'));
      const aside = new ContactsAside(db);
      try {
        aside.start(1, 10);
        await expect(aside.copyIn()).rejects.toThrow(/^writing contacts: /);
      } finally {
        await aside.close();
        db.close();
      }
      expect(readdirSync(tmp).filter((f) => f !== 'tsx-0')).toEqual(['bare.sqlite']);
    });
  });

  it('removes its folder when it cannot attach its file', async () => {
    await withTmp(async (tmp) => {
      const db = openDatabase(':memory:');
      db.exec("ATTACH ':memory:' AS seed_contacts"); // the name it attaches its file under
      expect(() => new ContactsAside(db)).toThrow(/already in use/);
      expect(readdirSync(tmp)).toEqual([]);
      await Promise.resolve();
    });
  });

  it('skips as many draws as seedContacts takes for each contact', () => {
    const db = openDatabase(':memory:');
    const [drawn, skipped] = [new Rng(7), new Rng(7)];
    seedContacts(db, drawn, 37);
    skipped.skip(CONTACT_DRAWS * 37);
    expect(skipped.state).toBe(drawn.state);
    expect(skipped.next()).toBe(drawn.next());
  });

  it('Rng.skip(n) leaves the generator where n draws do (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.nat(3000), (seedValue, n) => {
        const [a, b] = [new Rng(seedValue), new Rng(seedValue)];
        for (let i = 0; i < n; i++) a.next();
        b.skip(n);
        expect(b.state).toBe(a.state);
      }),
      { numRuns: 200 },
    );
  });
});
