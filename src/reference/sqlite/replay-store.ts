// Replay protection in the database (gap timestamp-window): every worker thread, every process
// and every restart on one database file sees the same record, and nothing caps it: an entry
// stays until its window has passed, then is pruned. Keys are stored as 16-byte digests (a
// saturated window holds millions). Written through a connection of its own with synchronous
// NORMAL: in WAL mode a commit then survives the process being killed (restarts, kill -9) and
// costs no fsync per request; only a power loss may forget the last entries, whose requests
// were then answered but not yet made durable either.
//
// The record is a file of its own beside the database (replayFileOf): SQLite resets the page
// cache of every connection reading a file whenever any connection commits to it, so with the
// record inside the database each request's entry made every worker read its pages again, and a
// small call cost nearly twice as much.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { ReplayStore } from '@evgen/runtime';
import type { ReplayUpkeep } from '../ops/instance-stats.js';
import { BUSY_TIMEOUT_MS, busyAsFault, isBusy, openDatabase, type Db } from './open.js';

/** How often one connection deletes expired entries and checkpoints the WAL. */
export const REPLAY_PRUNE_INTERVAL_MS = 1_000;

/** The write-ahead log past which a pruning step restarts it from its beginning (and its size after). */
export const REPLAY_WAL_BYTES = 16 * 1024 * 1024;

/** The record's key: the first 16 bytes of the request key's SHA-256 (a window holds millions). */
export const replayDigest = (key: string) =>
  createHash('sha256').update(key).digest().subarray(0, 16);

/** A row of PRAGMA wal_checkpoint: busy 1 when it could not finish, log frames, frames copied. */
interface Checkpoint {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

export class SqliteReplayStore implements ReplayStore {
  readonly #record;
  readonly #prune;
  readonly #checkpoint;
  readonly #restart;
  readonly #pageSize: number;
  #lastPrune = 0;
  /** The log passed REPLAY_WAL_BYTES: restart it at the first call that finds no reader on it. */
  #restartDue = false;

  constructor(
    db: Db,
    private readonly upkeep?: ReplayUpkeep,
  ) {
    db.pragma('synchronous = NORMAL');
    // Every request writes here, from every worker: SQLite's own busy handler sleeps at least a
    // millisecond when another holds the write lock for its few microseconds, so contention is
    // retried here instead, at once (seen() is asynchronous for it).
    db.pragma('busy_timeout = 0');
    // Its commits would otherwise checkpoint the WAL (with an fsync) every few hundred requests,
    // on a request's path: nearly half the record's cost. The
    // pruning step checkpoints instead, once per interval.
    db.pragma('wal_autocheckpoint = 0');
    // A new key, or one whose window has passed, is written (1 change); a live one is not (0).
    this.#record = db.prepare(
      'INSERT INTO replay_record (digest, expires_at) VALUES (?, ?) ON CONFLICT (digest) DO UPDATE SET expires_at = excluded.expires_at WHERE replay_record.expires_at <= ?',
    );
    this.#prune = db.prepare('DELETE FROM replay_record WHERE expires_at <= ?');
    // PASSIVE: copies what no reader still needs, never waits for one. Under steady load another
    // writer always appends while it runs, so the log never starts again from its beginning and
    // grows without end (about 11 KB a request); past REPLAY_WAL_BYTES a RESTART checkpoint holds
    // writers off while it copies what the passive one left, and the next commit starts the log
    // again, truncated to REPLAY_WAL_BYTES.
    this.#checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    this.#restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
    db.pragma(`journal_size_limit = ${REPLAY_WAL_BYTES}`);
    this.#pageSize = db.pragma('page_size', { simple: true }) as number;
  }

  async seen(key: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    const digest = replayDigest(key);
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        if (nowMs - this.#lastPrune >= REPLAY_PRUNE_INTERVAL_MS) {
          const { changes } = this.#prune.run(nowMs);
          const { log } = this.#checkpoint.get() as Checkpoint;
          this.#restartDue = log * this.#pageSize > REPLAY_WAL_BYTES;
          this.#lastPrune = nowMs;
          this.upkeep?.pruned(changes);
          this.upkeep?.checkpointed('passive');
        }
        // busy: a reader still uses the log, or a writer held the lock: the next call tries again.
        if (this.#restartDue) {
          this.#restartDue = (this.#restart.get() as Checkpoint).busy !== 0;
          if (!this.#restartDue) this.upkeep?.checkpointed('restart');
        }
        return this.#record.run(digest, expiresAtMs, nowMs).changes === 0;
      } catch (e) {
        if (!isBusy(e) || Date.now() > deadline) throw busyAsFault(e);
        // The lock is held for microseconds: try again after other work, then a moment later.
        await new Promise((r) => (attempt < 50 ? setImmediate(r) : setTimeout(r, 1)));
      }
    }
  }
}

export const REPLAY_TABLE = `
  CREATE TABLE replay_record (digest BLOB PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX replay_record_expiry ON replay_record (expires_at);
`;

/**
 * The replay record of the database at `dbPath`: the same file for every process, whichever path
 * (a symbolic link, a relative path) it opened the database by.
 */
export const replayFileOf = (dbPath: string) => `${realpathSync(dbPath)}-replay`;

/** Opens the replay record at `path` (a file of its own), creating its table if needed. */
export function openReplayDatabase(path: string): Db {
  const db = openDatabase(path, { migrate: false });
  db.exec(
    REPLAY_TABLE.replaceAll('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS').replaceAll(
      'CREATE INDEX',
      'CREATE INDEX IF NOT EXISTS',
    ),
  );
  return db;
}

/**
 * At start-up: entries still inside their window that an earlier version kept in the database
 * itself move to the replay file, so an upgrade's restart refuses them too. Copied and committed
 * first, then deleted: a crash in between leaves an entry in both places, never in neither.
 */
export function moveReplayEntries(db: Db, replay: Db, nowMs: number): void {
  const live = db
    .prepare('SELECT digest, expires_at AS expiresAt FROM replay_record WHERE expires_at > ?')
    .all(nowMs) as { digest: Buffer; expiresAt: number }[];
  if (live.length > 0) {
    const keep = replay.prepare(
      'INSERT INTO replay_record (digest, expires_at) VALUES (?, ?) ON CONFLICT (digest) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)',
    );
    replay.transaction(() => live.forEach((e) => keep.run(e.digest, e.expiresAt))).immediate();
  }
  db.prepare('DELETE FROM replay_record').run();
}
