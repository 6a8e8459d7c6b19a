// Replay protection in PostgreSQL (gap timestamp-window): every node, worker and restart on one
// database sees the same record, so a request accepted by one node is refused by every other.
// The statement is SQLite's: a new key, or one whose window has passed, is written (1 row); a live
// one is not (0). Keys are stored as 16-byte digests; expired entries are pruned once a second
// by each store (a DELETE through the expiry index: cheap, and harmless when several do it).
import type { ReplayStore } from '@evgen/runtime';
import { REPLAY_PRUNE_INTERVAL_MS, replayDigest } from '../db/replay-store.js';
import { run, statement } from '../store/program.js';
import type { PgDatabase } from './database.js';

const RECORD = statement(
  'INSERT INTO replay_record (digest, expires_at) VALUES (?, ?) ON CONFLICT (digest) DO UPDATE SET expires_at = excluded.expires_at WHERE replay_record.expires_at <= ?',
);
const PRUNE = statement('DELETE FROM replay_record WHERE expires_at <= ?');

export class PostgresReplayStore implements ReplayStore {
  #lastPrune = 0;
  constructor(private readonly db: PgDatabase) {}

  async seen(key: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    if (nowMs - this.#lastPrune >= REPLAY_PRUNE_INTERVAL_MS) {
      this.#lastPrune = nowMs;
      await this.db.run(run(PRUNE, nowMs), 'statement');
    }
    const written = await this.db.run(
      run(RECORD, replayDigest(key), expiresAtMs, nowMs),
      'statement',
    );
    return written === 0;
  }
}
