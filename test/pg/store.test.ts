// The PostgreSQL store itself: its schema is SQLite's, column for column; its pool holds at most
// its bound of connections; a statement that waits past the time-out is answered Unavailable 503;
// the search limits hold; the replay record keeps and prunes entries; an unreachable database is
// Unavailable (503, Retry-After) and unhealthy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceFault } from '@evgen/runtime';
import {
  databaseTarget,
  openReferenceDatabase,
  seedDatabase,
  type ReferenceDatabase,
} from '../../src/reference/database.js';
import { openDatabase } from '../../src/reference/sqlite/open.js';
import { referenceHandlers } from '../../src/reference/handlers/index.js';
import { PgDatabase } from '../../src/reference/pg/database.js';
import { PostgresStore } from '../../src/reference/pg/store.js';
import { MAX_QUERY_LENGTH, MAX_SEARCH_TERMS, MAX_TERM_LENGTH } from '../../src/reference/search.js';
import { newDatabase, reader } from '../support/backend.js';

const ctx = { apiKey: 'k', apiKeyName: 'k', operation: 'test', binding: 'soap11' } as const;
let url: string;
let db: ReferenceDatabase;
beforeAll(async () => {
  url = (await newDatabase()).target;
  await seedDatabase(databaseTarget(url), { events: 6, bookings: 200 });
  db = await openReferenceDatabase(databaseTarget(url), { migrate: false });
});
afterAll(() => db.close());

/** A store with its own pool, under an application name of its own (seen in pg_stat_activity). */
function storeNamed(name: string, poolSize: number): PostgresStore {
  return new PostgresStore(PgDatabase.open(url, { poolSize, name }));
}

describe('schema', () => {
  it('has every table, column and index of the SQLite schema, of the same kind', async () => {
    const sqlite = openDatabase(':memory:');
    const kinds: Record<string, string> = {
      INTEGER: 'integer',
      TEXT: 'text',
      BLOB: 'bytes',
      bigint: 'integer',
      integer: 'integer',
      text: 'text',
      bytea: 'bytes',
    };
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    for (const table of tables) {
      const want = (
        sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string }[]
      ).map((c) => [c.name, kinds[c.type]]);
      const got = (
        await db.query<{ column_name: string; data_type: string }>(
          'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position',
          table,
        )
      ).map((c) => [c.column_name, kinds[c.data_type]]);
      expect(got, table).toEqual(want);
    }
    const indexes = sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const pgIndexes = await reader(db).column<string>('SELECT indexname FROM pg_indexes');
    expect(indexes.filter((i) => !pgIndexes.includes(i))).toEqual([]);
    sqlite.close();
  });
});

describe('connections', () => {
  it('holds at most its pool size, however many calls wait', async () => {
    const store = storeNamed('evgen pool bound', 3);
    const seen: number[] = [];
    let running = true;
    const sample = (async () => {
      while (running) {
        seen.push(
          await reader(db).value<number>(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'evgen pool bound'",
          ),
        );
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const h = referenceHandlers(store);
    const answers = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => h.getEventDetails7({ eventId: 1 + (i % 6) }, ctx)),
    );
    running = false;
    await sample;
    await store.close();
    expect(answers.map((a) => a.EventId)).toEqual(answers.map((_, i) => 1 + (i % 6)));
    expect(Math.max(...seen)).toBeLessThanOrEqual(3);
    expect(Math.max(...seen)).toBeGreaterThan(0);
  });

  it('answers Unavailable 503 when a statement waits past the time-out, then serves again', async () => {
    const store = storeNamed('evgen time-out', 2);
    const h = referenceHandlers(store);
    const ticket = await reader(db).one<{ attendee_type_id: number; ticket_type_id: number }>(
      'SELECT l.attendee_type_id, l.ticket_type_id FROM ticket_type_attendee_type l JOIN ticket_type t ON t.id = l.ticket_type_id WHERE t.event_id = 2 ORDER BY 2 LIMIT 1',
    );
    const bookIt = () =>
      h.submitSimpleBookingWithBookingStatus(
        {
          eventId: 2,
          attendeeTypeId: ticket.attendee_type_id,
          ticketTypeId: ticket.ticket_type_id,
          bookingStatusId: 1,
          contactId: 1,
        },
        ctx,
      );
    // Another session holds event 2's row, as a booking that never ends would.
    const holder = PgDatabase.open(url, { poolSize: 1, name: 'evgen lock holder' });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const held = holder.withConnection(async (c) => {
      await c.query('BEGIN');
      await c.query('SELECT id FROM event WHERE id = 2 FOR UPDATE');
      await released;
      await c.query('ROLLBACK');
    });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const e = await Promise.resolve(bookIt()).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ServiceFault);
      expect(e).toMatchObject({
        code: 'Unavailable',
        message: 'database busy: a statement ran past its time-out',
      });
    } finally {
      release();
      await held;
      await holder.close();
    }
    expect((await bookIt()).EventId).toBe(2);
    await store.close();
  }, 30_000);

  it('answers Unavailable and reports unhealthy, with the cause, when nothing listens', async () => {
    const nowhere = url.replace(/host=[^&]+/, `host=${encodeURIComponent('/nonexistent-evgen')}`);
    const store = PostgresStore.open(nowhere, 1);
    await expect(store.eventDetails(1, true)).rejects.toMatchObject({
      code: 'Unavailable',
      message: 'database unreachable',
      cause: expect.objectContaining({ code: 'ENOENT' }) as unknown,
    });
    expect(await store.health()).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^database unreachable: .*ENOENT/) as string,
    });
    await store.close();
  });
});

describe('search limits on PostgreSQL', () => {
  it('answers the longest and widest queries within the limits, and refuses past them', async () => {
    const s = storeNamed('evgen search', 1);
    const h = referenceHandlers(s);
    const search = (searchQuery: string) => h.eventProfileSearch({ searchQuery }, ctx);
    const words = Array.from({ length: MAX_SEARCH_TERMS }, () => 'e'.repeat(MAX_TERM_LENGTH / 4));
    await expect(search(words.join(' '))).resolves.toMatchObject({ Events: [] });
    await expect(search('%_\\')).resolves.toMatchObject({ Events: [] });
    await expect(search('w'.repeat(MAX_QUERY_LENGTH + 1))).rejects.toMatchObject({
      code: 'InvalidParameter',
    });
    await s.close();
  });
});

describe('replay record on PostgreSQL', () => {
  it('keeps an entry for its window, then lets the key again; expired entries are pruned', async () => {
    const s = storeNamed('evgen replay', 1);
    const now = Date.now();
    expect(await s.replay.seen('first', now + 300_000, now)).toBe(false);
    expect(await s.replay.seen('first', now + 300_000, now + 1)).toBe(true);
    await s.replay.seen('other', now + 10, now);
    const later = now + 300_001 + 1_000;
    expect(await s.replay.seen('first', later + 300_000, later)).toBe(false);
    expect(
      await reader(db).value('SELECT count(*) FROM replay_record WHERE expires_at <= ?', later),
    ).toBe(0);
    await s.close();
  });
});
