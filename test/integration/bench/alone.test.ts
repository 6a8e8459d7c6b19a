// The bench's "work alone" row: GetBookingsBatch(100) through the whole service on worker threads
// of a child process, without HTTP. It counts only 200 answers (a fault counted as a call would
// make a failing service look fast) and pairs two threads against one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairedWorkAlone, workAlone } from '../../../src/bench/alone.js';
import { prepareDatabase } from '../../../src/reference/sqlite/startup.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'evgen-alone-'));
  db = join(dir, 'events.sqlite');
  prepareDatabase(db, { seed: { events: 1, bookings: 20 } });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('workAlone', () => {
  it.each([{ threads: 1 }, { threads: 2 }])(
    'counts calls answered 200 on $threads thread(s)',
    async ({ threads }) => {
      expect(await workAlone(db, 1, threads, 0.5)).toBeGreaterThan(0);
    },
    60_000,
  );

  it('fails on an answer that is not 200 instead of counting it', async () => {
    await expect(workAlone(db, 999_999, 1, 0.5)).rejects.toThrow(/work alone: HTTP [45]\d\d/);
  }, 60_000);

  it('pairs two threads against one, round by round', async () => {
    const p = await pairedWorkAlone(2, db, 1, 0.3);
    expect(p.ratios).toHaveLength(2);
    for (const x of p.ratios) expect(x).toBeGreaterThan(0);
    expect([p.two, p.one].every((x) => x > 0)).toBe(true);
  }, 120_000);
});
