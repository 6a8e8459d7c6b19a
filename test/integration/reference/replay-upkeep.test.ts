// The replay record's upkeep as /metrics counts it (ops/instance-stats.ts): each pruning pass, and
// the expired entries it deleted, whether this writer held them or only another one had. Time is
// the log's `nowMs`, driven here.
import { readdirSync } from 'node:fs';
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
  ReplayLog,
  SEGMENT_MS,
} from '../../../src/reference/replay-log/replay-log.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-upkeep-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const WINDOW_MS = 300_000;

it('counts pruning passes and the entries they deleted, held or only written by another', async () => {
  const path = join(dir, 'record-log');
  const { replay } = instanceStatsBuffers(1, false);
  let now = 1_795_000_000_000;
  const log = new ReplayLog(path, { upkeep: replayUpkeep(replay), nowMs: now }); // a pass at open
  const other = new ReplayLog(path, { nowMs: now });
  try {
    expect(replayTotals(replay)).toEqual({ prunes: 1, pruned: 0 });
    // Three entries this writer holds, two only the other one wrote: all end within a segment.
    for (const k of ['a', 'b', 'c']) await log.seen(k, now + 10, now);
    for (const k of ['d', 'e']) await other.seen(k, now + SEGMENT_MS + 10, now);
    await log.seen('live', now + WINDOW_MS, now);
    expect(replayTotals(replay).prunes).toBe(1); // within the interval: no pass
    now += REPLAY_PRUNE_INTERVAL_MS;
    await log.seen('f', now + WINDOW_MS, now);
    expect(replayTotals(replay)).toEqual({ prunes: 2, pruned: 0 }); // nothing has ended yet
    now += 2 * SEGMENT_MS;
    await log.seen('g', now + WINDOW_MS, now);
    expect(replayTotals(replay)).toEqual({ prunes: 3, pruned: 5 });
    expect(readdirSync(path)).toHaveLength(2); // the live segments of 'live' and 'g'
  } finally {
    other.close();
    log.close();
  }
});
