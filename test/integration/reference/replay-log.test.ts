// The replay record as an append-only log (replay-log/): exactly the replays refused, in a turn,
// across writers, processes and restarts; segments pruned whole; bytes a crash left behind skipped;
// memory bounded.
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayLog, SEGMENT_MS } from '../../../src/reference/replay-log/replay-log.js';
import {
  MAX_BATCH_ENTRIES,
  RECORD_BYTES,
  writeHeader,
} from '../../../src/reference/replay-log/segment.js';
import { replayEntry } from '../../../src/reference/replay-log/entry.js';
import { PROJECT_ROOT } from '../../support/ir.js';

let root: string;
let n = 0;
const fresh = () => join(root, `log-${n++}`);
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evgen-replay-log-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const WINDOW = 300_000;
const NOW = 1_795_000_000_000;
/** A batch's header alone: of `count` entries, by writer and sequence number 7. */
function header(count: number): Buffer {
  const b = Buffer.alloc(RECORD_BYTES);
  writeHeader(b, count, 7, 7);
  return b;
}
const seen = (log: ReplayLog, keys: readonly string[], now = NOW) =>
  Promise.all(keys.map((k) => log.seen(k, now + WINDOW, now)));

describe('the replay log', () => {
  it.each([
    { given: { size: 1, replays: [0] } },
    { given: { size: 2, replays: [1] } },
    { given: { size: 37, replays: [] } },
    { given: { size: 64, replays: [0, 33, 63] } },
    { given: { size: 300, replays: [64, 299] } },
  ])('refuses exactly the replays of a turn of $given.size', async ({ given }) => {
    const log = new ReplayLog(fresh(), { nowMs: NOW });
    try {
      const key = (i: number) => (given.replays.includes(i) ? `earlier ${i}` : `new ${i}`);
      await seen(log, given.replays.map(key));
      const keys = Array.from({ length: given.size }, (_, i) => key(i));
      expect(await seen(log, keys)).toEqual(keys.map((_, i) => given.replays.includes(i)));
      expect(log.size).toBe(given.size);
    } finally {
      log.close();
    }
  });

  it('refuses a key twice in one turn, and in the next turn', async () => {
    const log = new ReplayLog(fresh(), { nowMs: NOW });
    try {
      expect(await seen(log, ['twice', 'other', 'twice'])).toEqual([false, false, true]);
      expect(await seen(log, ['twice'])).toEqual([true]);
    } finally {
      log.close();
    }
  });

  it('is shared by writers on one directory, and kept across a restart', async () => {
    const dir = fresh();
    const a = new ReplayLog(dir, { nowMs: NOW });
    const b = new ReplayLog(dir, { nowMs: NOW });
    try {
      expect(await seen(a, ['from a'])).toEqual([false]);
      expect(await seen(b, ['from a', 'from b'])).toEqual([true, false]);
      expect(await seen(a, ['from b'])).toEqual([true]);
      // Both in one turn each: the first written wins, whichever learns of it later.
      const [x, y] = await Promise.all([seen(a, ['both']), seen(b, ['both'])]);
      expect([...x, ...y].sort()).toEqual([false, true]);
    } finally {
      a.close();
      b.close();
    }
    const again = new ReplayLog(dir, { nowMs: NOW });
    try {
      expect(await seen(again, ['from a', 'from b', 'both', 'new'])).toEqual([
        true,
        true,
        true,
        false,
      ]);
    } finally {
      again.close();
    }
  });

  // Processes append at once, each turn a write: every key is new to exactly one of them.
  it('lets exactly one of several processes writing at once have each key', async () => {
    const dir = fresh();
    const run = promisify(execFile);
    const writer = join(PROJECT_ROOT, 'test/support/replay-log-writer.ts');
    const count = 20_000;
    const startAt = String(Date.now() + 3_000); // after every process has started
    // Each starts at a third of the keys of its own and goes round: they meet on every key.
    const runs = await Promise.all(
      [7, 13, 29].map((turn, j) => {
        const from = String(Math.floor((j * count) / 3));
        const args = [writer, dir, 'k', String(count), String(turn), String(NOW), startAt, from];
        return run('node', ['--import', 'tsx', ...args], { cwd: PROJECT_ROOT, maxBuffer: 1 << 20 });
      }),
    );
    const results = runs.map((r) => JSON.parse(r.stdout) as boolean[]);
    const firsts = Array.from({ length: count }, (_, k) => results.filter((r) => !r[k]).length);
    expect(firsts.filter((n) => n !== 1)).toEqual([]);
    // Each had some keys first.
    for (const r of results) expect(r.filter((s) => !s).length).toBeGreaterThan(0);
  }, 60_000);

  // A batch written is on the file before its requests are answered: killing the process keeps it.
  it('keeps every acknowledged entry across kill -9', async () => {
    const dir = fresh();
    const writer = join(PROJECT_ROOT, 'test/support/replay-log-writer.ts');
    const args = [writer, dir, 'k', String(10_000_000), '16', String(NOW), '0', '0', 'progress'];
    const child = spawn('node', ['--import', 'tsx', ...args], { cwd: PROJECT_ROOT });
    let acked = 0;
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        acked = Number(d.trim().split('\n').at(-1));
        if (acked >= 5_000 && child.kill('SIGKILL')) resolve();
      });
    });
    await new Promise((resolve) => child.on('exit', resolve));
    expect(child.signalCode).toBe('SIGKILL');
    const log = new ReplayLog(dir, { nowMs: NOW });
    try {
      const keys = Array.from({ length: acked }, (_, k) => `k${k}`);
      expect((await seen(log, keys)).filter((s) => !s)).toEqual([]);
    } finally {
      log.close();
    }
  }, 60_000);

  it('deletes a segment once every window in it has ended, and takes its keys anew', async () => {
    const dir = fresh();
    const log = new ReplayLog(dir, { nowMs: NOW });
    try {
      await seen(log, ['old'], NOW - WINDOW + 1); // its window ends at NOW + 1
      await seen(log, ['live']);
      expect(readdirSync(dir)).toHaveLength(2);
      const later = NOW + 2 * SEGMENT_MS;
      expect(await seen(log, ['other'], later)).toEqual([false]);
      expect(readdirSync(dir)).toHaveLength(2); // 'live' and 'other'
      expect(log.size).toBe(2);
      expect(await log.seen('live', NOW + WINDOW, later)).toBe(true);
    } finally {
      log.close();
    }
  });

  // A segment holds windows ending over SEGMENT_MS: one that began is not over.
  it('keeps a segment while any window in it goes on', async () => {
    const log = new ReplayLog(fresh(), { nowMs: NOW });
    try {
      const ends = NOW + SEGMENT_MS - 1;
      expect(await Promise.all([log.seen('k', ends, NOW)])).toEqual([false]);
      const later = NOW + SEGMENT_MS - 2; // past the prune interval, inside the window
      expect(await log.seen('other', later + WINDOW, later)).toBe(false);
      expect(await log.seen('k', ends, later)).toBe(true);
    } finally {
      log.close();
    }
  });

  it('answers Unavailable for a batch it could not write, and nothing as new', async () => {
    const dir = fresh();
    const log = new ReplayLog(dir, { nowMs: NOW });
    try {
      const end = NOW + WINDOW;
      mkdirSync(join(dir, String(end - (end % SEGMENT_MS)))); // the segment's name, taken
      await expect(log.seen('k', end, NOW)).rejects.toMatchObject({ code: 'Unavailable' });
    } finally {
      log.close();
    }
  });

  // A write cut short by a crash of the machine or a full disk leaves bytes that are no whole
  // batch: zeros, part of a record, a header whose entries never came, or part of an entry whose
  // window's end makes it look whole, with the start of the next batch inside it.
  it.each([
    { given: 'zeros', bytes: Buffer.alloc(40) },
    { given: 'part of a record', bytes: Buffer.from([1, 2, 3, 4, 5]) },
    { given: 'a header without its entries', bytes: header(5) },
    {
      given: 'a header and part of an entry',
      bytes: Buffer.concat([header(2), replayEntry('lost', NOW + WINDOW).subarray(0, 9)]),
    },
  ])('reads past $given that a cut write left', async ({ bytes }) => {
    const dir = fresh();
    const a = new ReplayLog(dir, { nowMs: NOW });
    try {
      await seen(a, ['before']);
      const [segment] = readdirSync(dir);
      appendFileSync(join(dir, segment!), bytes);
      expect(await seen(a, ['after'])).toEqual([false]);
      const b = new ReplayLog(dir, { nowMs: NOW });
      try {
        expect(await seen(b, ['before', 'after', 'new'])).toEqual([true, true, false]);
        expect(await seen(a, ['new'])).toEqual([true]);
      } finally {
        b.close();
      }
    } finally {
      a.close();
    }
  });

  // An upgrade's earlier record (replay-store.ts) may hold more than a batch can: several go.
  it("keeps an earlier record's entries, more than one batch holds", async () => {
    const dir = fresh();
    const count = MAX_BATCH_ENTRIES + 100;
    const keys = Array.from({ length: count }, (_, i) => `earlier ${i}`);
    const writer = new ReplayLog(dir, { nowMs: NOW });
    writer.keep(keys.map((k) => replayEntry(k, NOW + WINDOW)));
    writer.close();
    const log = new ReplayLog(dir, { nowMs: NOW });
    try {
      expect((await seen(log, keys)).filter((s) => !s)).toEqual([]);
      expect(await seen(log, ['new'])).toEqual([false]);
    } finally {
      log.close();
    }
  });

  it('refuses its own new entries past its bound (Unavailable), never forgetting one', async () => {
    const log = new ReplayLog(fresh(), { nowMs: NOW, maxEntries: 10 });
    try {
      await seen(
        log,
        Array.from({ length: 10 }, (_, i) => `k${i}`),
      );
      await expect(log.seen('one more', NOW + WINDOW, NOW)).rejects.toMatchObject({
        code: 'Unavailable',
      });
      expect(log.size).toBe(10);
    } finally {
      log.close();
    }
  });
});
