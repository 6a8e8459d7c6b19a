// Replay protection in PostgreSQL (gap timestamp-window): every node, worker and restart on one
// database sees the same record, so a request accepted by one node is refused by every other.
// The write is SQLite's (a new key, or one whose window has passed, is written; a live one is
// not), in the schema's function replay_seen: one round trip, and a commit that does not wait for
// the WAL flush. Like SQLite's synchronous NORMAL, an entry survives any node's crash; unlike it,
// a crash of the database server itself may forget the last fraction of a second of entries
// (wal_writer_delay), whose requests could then be replayed within their window: the price of
// not flushing the WAL on every request (a large share of a small call's rate). Keys are
// stored as 16-byte digests; expired entries are pruned once a second by each store (a DELETE
// through the expiry index: cheap, and harmless when several do it).
import type { ReplayStore } from '@evgen/runtime';
import type { ReplayUpkeep } from '../ops/instance-stats.js';
import { REPLAY_PRUNE_INTERVAL_MS } from '../replay-log/replay-log.js';
import { replayDigest } from '../replay-log/entry.js';
import { run, statement, value } from '../store/program.js';
import type { PgDatabase } from './database.js';

const SEEN = statement('SELECT replay_seen(?, ?, ?)');
const PRUNE = statement('DELETE FROM replay_record WHERE expires_at <= ?');

export class PostgresReplayStore implements ReplayStore {
  #lastPrune = 0;
  constructor(
    private readonly db: PgDatabase,
    private readonly upkeep?: ReplayUpkeep,
  ) {}

  async seen(key: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    if (nowMs - this.#lastPrune >= REPLAY_PRUNE_INTERVAL_MS) {
      this.#lastPrune = nowMs;
      const pruned = await this.db.run(run(PRUNE, nowMs), 'statement');
      this.upkeep?.pruned(pruned);
    }
    return (
      (await this.db.run(
        value<boolean>(SEEN, replayDigest(key), expiresAtMs, nowMs),
        'statement',
      )) === true
    );
  }
}
