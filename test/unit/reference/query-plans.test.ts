// Flat page cost: every statement that serves a page of bookings searches indexes only. A full
// scan of a table or a temporary B-tree (a sort) would make a page cost grow with the table; on
// the previous SQL each row set was sorted in a temporary B-tree (json_group_array ORDER BY).
import { describe, expect, it } from 'vitest';
import { BOOKING_SET_SQL, PAGE_IDS_SQL } from '../../../src/reference/store/bookings.js';
import { openDatabase } from '../../../src/reference/sqlite/open.js';
import { seed } from '../../../src/reference/seed/index.js';

const db = openDatabase(':memory:');
seed(db, { events: 2, bookings: 2_000 });
db.exec('ANALYZE'); // as a long-running database would have statistics

const plan = (sql: string, ...params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
    (r) => r.detail,
  );

describe('query plans of a page of bookings', () => {
  const ids = JSON.stringify([3, 5, 8, 13]);
  it.each([
    { given: 'page ids', sql: PAGE_IDS_SQL.sqlite, params: [1, 100, 0] },
    ...BOOKING_SET_SQL.map((s, i) => ({ given: `row set ${i + 1}`, sql: s.sqlite, params: [ids] })),
  ])('$given: searches only', ({ sql, params }) => {
    const steps = plan(sql, ...params);
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      expect(step).not.toMatch(/TEMP B-TREE/);
      // The only scan allowed is of the id list itself (json_each), never of a table.
      expect(step).toMatch(/^(SEARCH \w+ USING |SCAN j VIRTUAL TABLE)/);
    }
  });
});
