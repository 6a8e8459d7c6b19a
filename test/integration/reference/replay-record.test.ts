// The SQLite replay record keeps every entry inside its window, however many come after it (the
// in-memory store let a request inside its window through after 200,000 others), and prunes the
// expired ones.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/reference/db/open.js';
import { SqliteReplayStore } from '../../../src/reference/db/replay-store.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-replay-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

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
      expect(db.prepare('SELECT count(*) FROM replay_record').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  }, 60_000);
});
