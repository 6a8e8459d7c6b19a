// The replay record's upkeep as /metrics counts it (ops/instance-stats.ts): each pruning pass, the
// expired entries it deleted, and the SQLite record's checkpoints — passive at every pass, restart
// when a reader kept the log from starting again and it passed its limit. Time is the store's
// `nowMs`, driven here.
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  instanceStatsBuffers,
  replayTotals,
  replayUpkeep,
} from '../../../src/reference/ops/instance-stats.js';
import {
  REPLAY_PRUNE_INTERVAL_MS,
  REPLAY_WAL_BYTES,
  SqliteReplayStore,
  openReplayDatabase,
} from '../../../src/reference/sqlite/replay-store.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-upkeep-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const WINDOW_MS = 300_000;

it('counts pruning passes, the entries they deleted, and each checkpoint of the log', async () => {
  const path = join(dir, 'record.sqlite-replay');
  const db = openReplayDatabase(path);
  const reader = openReplayDatabase(path);
  const { replay } = instanceStatsBuffers(1, false);
  try {
    const store = new SqliteReplayStore(db, replayUpkeep(replay));
    let now = Date.now();
    expect(await store.seen('first', now + WINDOW_MS, now)).toBe(false); // the first call prunes
    expect(replayTotals(replay)).toEqual({
      prunes: 1,
      pruned: 0,
      checkpoints: { passive: 1, restart: 0 },
    });
    // Within the interval nothing is pruned; 3 entries expire before the next pass.
    for (const k of ['a', 'b', 'c']) await store.seen(k, now + 10, now);
    expect(replayTotals(replay).prunes).toBe(1);
    now += REPLAY_PRUNE_INTERVAL_MS;
    await store.seen('d', now + WINDOW_MS, now);
    expect(replayTotals(replay)).toEqual({
      prunes: 2,
      pruned: 3,
      checkpoints: { passive: 2, restart: 0 },
    });
    // A reader's snapshot keeps the log from starting again: past REPLAY_WAL_BYTES the next pass
    // asks for a restart, done at the first call once the reader is gone.
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM replay_entry').get();
    // The log's pages (a 32-byte header, then frames of a 24-byte header and a page).
    const page = db.pragma('page_size', { simple: true }) as number;
    const walBytes = () => ((statSync(`${path}-wal`).size - 32) / (page + 24)) * page;
    for (let n = 0; walBytes() <= REPLAY_WAL_BYTES && n < 100_000; n++)
      await store.seen(`k${n}`, now + WINDOW_MS, now);
    expect(walBytes()).toBeGreaterThan(REPLAY_WAL_BYTES);
    now += REPLAY_PRUNE_INTERVAL_MS;
    await store.seen('e', now + WINDOW_MS, now); // the pass: the restart is due, the reader holds it
    expect(replayTotals(replay).checkpoints).toEqual({ passive: 3, restart: 0 });
    reader.exec('COMMIT');
    await store.seen('f', now + WINDOW_MS, now);
    expect(replayTotals(replay)).toEqual({
      prunes: 3,
      pruned: 3,
      checkpoints: { passive: 3, restart: 1 },
    });
  } finally {
    reader.close();
    db.close();
  }
}, 60_000);
