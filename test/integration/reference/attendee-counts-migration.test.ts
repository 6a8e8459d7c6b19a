// SQLite's migration 2 back-fills the attendee counts of a database seeded before it.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteReferenceDatabase } from '../../../src/reference/database.js';
import { MIGRATIONS } from '../../../src/reference/sqlite/migrations.js';
import { migrate } from '../../../src/reference/sqlite/open.js';
import { seed } from '../../../src/reference/seed/index.js';
import { expectCountsLive } from './counts.js';

describe('attendee counts (SQLite migration 2)', () => {
  it('back-fills the counts of a database seeded before it', async () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    );
    db.exec(MIGRATIONS[0] as string);
    db.prepare("INSERT INTO schema_migrations VALUES (1, '2026-01-01')").run();
    seed(db, { events: 8, bookings: 600 });
    db.prepare(
      'UPDATE attendee SET status_id = (SELECT id FROM attendee_status s WHERE s.event_id = (SELECT event_id FROM attendee_status WHERE id = attendee.status_id) AND s.status_type = ?) WHERE id % 7 = 0',
    ).run('Waiting');
    expect(migrate(db)).toEqual(MIGRATIONS.map((_, i) => i + 1).slice(1));
    expect(
      db
        .prepare("SELECT count(*) FROM event_attendee_count WHERE status_type = 'Waiting'")
        .pluck()
        .get(),
    ).toBeGreaterThan(0);
    await expectCountsLive(sqliteReferenceDatabase(db));
  });
});
