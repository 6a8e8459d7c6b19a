// Replay protection in the database (gap timestamp-window): every worker thread, every process
// and every restart on one database file sees the same record, and nothing caps it: an entry
// stays until its window has passed, then is pruned. An entry is 16 bytes: when its window ends,
// then a digest of the request key (replayEntry), so entries arrive in about the order of their
// keys: new ones land on the last pages of the table, and a commit writes a page or two however
// many entries it holds (a random digest as key dirtied a page per entry, and the WAL and its
// checkpoints copied them all), and the expired ones are a range at its start, pruned without an
// index. Written through a connection of its own with synchronous
// NORMAL: in WAL mode a commit then survives the process being killed (restarts, kill -9) and
// costs no fsync per request; only a power loss may forget the last entries, whose requests
// were then answered but not yet made durable either.
//
// The record is a file of its own beside the database (replayFileOf): SQLite resets the page
// cache of every connection reading a file whenever any connection commits to it, so with the
// record inside the database each request's entry made every worker read its pages again, and a
// small call cost nearly twice as much.
import type { Statement } from 'better-sqlite3';
import { hash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { ReplayStore } from '@evgen/runtime';
import { onTurnEnd } from '@evgen/runtime/internal';
import type { ReplayUpkeep } from '../ops/instance-stats.js';
import { BUSY_TIMEOUT_MS, busyAsFault, isBusy, openDatabase, type Db } from './open.js';

/** How often one connection deletes expired entries and checkpoints the WAL. */
export const REPLAY_PRUNE_INTERVAL_MS = 1_000;

/** The write-ahead log past which a pruning step restarts it from its beginning (and its size after). */
export const REPLAY_WAL_BYTES = 16 * 1024 * 1024;

/**
 * Writes the first `bytes` bytes of `key`'s SHA-256 into `b` at `at`. The digest comes as a
 * 'binary' (latin1) string, one character per byte: node's hash() makes its 'buffer' output
 * slowly, more than the digest itself costs.
 */
function writeDigest(key: string, b: Buffer, at: number, bytes: number): void {
  b.write(hash('sha256', key, 'binary'), at, bytes, 'binary');
}

/** The record's key: the first 16 bytes of the request key's SHA-256 (a window holds millions). */
export function replayDigest(key: string): Buffer {
  const digest = Buffer.allocUnsafe(16);
  writeDigest(key, digest, 0, 16);
  return digest;
}

/** Bytes of an entry's window end (ms, big-endian) and of its key's digest. */
const EXPIRY_BYTES = 8;
const DIGEST_BYTES = 8;

/** Writes `ms` (a whole number of milliseconds) at the start of `b`, big-endian, in 8 bytes. */
function writeExpiry(b: Buffer, ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`not a time in ms: ${ms}`);
  b.writeUInt32BE(Math.floor(ms / 2 ** 32), 0);
  b.writeUInt32BE(ms % 2 ** 32, 4);
}

/** The first bytes of an entry whose window ends at `ms`: entries sort by it, earliest first. */
function expiryPrefix(ms: number): Buffer {
  const b = Buffer.allocUnsafe(EXPIRY_BYTES);
  writeExpiry(b, ms);
  return b;
}

/**
 * An entry of the record: its window's end, then the first 8 bytes of the request key's SHA-256.
 * A request key always has the same window end (its Timestamp's), so two requests share an entry
 * only when their keys are the same, or when 64 bits of digest collide within one millisecond.
 */
export function replayEntry(key: string, expiresAtMs: number): Buffer {
  const entry = entryEnding(expiresAtMs);
  writeDigest(key, entry, EXPIRY_BYTES, DIGEST_BYTES);
  return entry;
}

/** The entry of a digest (the record's earlier key, whose first 8 bytes are the same) and its end. */
function entryOf(digest: Uint8Array, expiresAtMs: number): Buffer {
  const entry = entryEnding(expiresAtMs);
  entry.set(digest.subarray(0, DIGEST_BYTES), EXPIRY_BYTES);
  return entry;
}

/** An entry whose window ends at `expiresAtMs`, its digest still to be written. */
function entryEnding(expiresAtMs: number): Buffer {
  const entry = Buffer.allocUnsafe(EXPIRY_BYTES + DIGEST_BYTES);
  writeExpiry(entry, expiresAtMs);
  return entry;
}

/** The replay file's table: entries only, its key their order (see replayEntry). */
export const REPLAY_ENTRY_TABLE =
  'CREATE TABLE IF NOT EXISTS replay_entry (entry BLOB PRIMARY KEY) WITHOUT ROWID';

/** The most entries one INSERT statement writes; a larger batch takes several (see #allNew). */
export const REPLAY_ROWS_PER_INSERT = 64;

/** A row of PRAGMA wal_checkpoint: busy 1 when it could not finish, log frames, frames copied. */
interface Checkpoint {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

/** A request's entry waiting for the next commit of the record. */
interface Pending {
  readonly entry: Buffer;
  readonly expiresAtMs: number;
  readonly nowMs: number;
  readonly resolve: (seen: boolean) => void;
  readonly reject: (e: unknown) => void;
}

export class SqliteReplayStore implements ReplayStore {
  readonly #db: Db;
  /** INSERTs of 1 to REPLAY_ROWS_PER_INSERT entries, each prepared when first needed. */
  readonly #inserts = new Map<number, Statement>();
  readonly #prune;
  readonly #checkpoint;
  readonly #restart;
  readonly #begin;
  readonly #commit;
  readonly #rollback;
  readonly #pageSize: number;
  #lastPrune = 0;
  /** The log passed REPLAY_WAL_BYTES: restart it at the first call that finds no reader on it. */
  #restartDue = false;
  /** Entries for the next commit, in arrival order; a commit is scheduled while any wait. */
  #pending: Pending[] = [];
  /** Commits of the waiting entries tried and refused (another connection held the lock). */
  #attempts = 0;
  /** When the oldest waiting entry gives up on the lock (Unavailable). */
  #deadline = 0;

  constructor(
    db: Db,
    private readonly upkeep?: ReplayUpkeep,
  ) {
    this.#db = db;
    db.exec(REPLAY_ENTRY_TABLE);
    db.pragma('synchronous = NORMAL');
    // Every request writes here, from every worker: SQLite's own busy handler sleeps at least a
    // millisecond when another holds the write lock for its few microseconds, so contention is
    // retried here instead, at once (seen() is asynchronous for it).
    db.pragma('busy_timeout = 0');
    // Its commits would otherwise checkpoint the WAL (with an fsync) every few hundred requests,
    // on a request's path, a large share of the record's cost. The pruning step checkpoints
    // instead, once per interval.
    db.pragma('wal_autocheckpoint = 0');
    // Every entry whose window ended at or before the time given (as its expiry prefix, + 1 ms).
    this.#prune = db.prepare('DELETE FROM replay_entry WHERE entry < ?');
    // PASSIVE: copies what no reader still needs, never waits for one. Under steady load another
    // writer always appends while it runs, so the log never starts again from its beginning and
    // grows without end (about 11 KB a request); past REPLAY_WAL_BYTES a RESTART checkpoint holds
    // writers off while it copies what the passive one left, and the next commit starts the log
    // again, truncated to REPLAY_WAL_BYTES.
    this.#checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    this.#restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    db.pragma(`journal_size_limit = ${REPLAY_WAL_BYTES}`);
    this.#pageSize = db.pragma('page_size', { simple: true }) as number;
  }

  /**
   * Records the key with every other entry queued in this turn of the event loop (onTurnEnd), in
   * one transaction (group commit): a request is answered only once its entry is committed, and
   * the INSERT decides, against every process's entries, whether it was seen. A commit per
   * request was most of the record's cost; under load one commit now serves every request the
   * loop read in one turn.
   */
  seen(key: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    const entry = replayEntry(key, expiresAtMs);
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) {
        this.#deadline = Date.now() + BUSY_TIMEOUT_MS;
        onTurnEnd(this.#flush);
      }
      this.#pending.push({ entry, expiresAtMs, nowMs, resolve, reject });
    });
  }

  readonly #flush = (): void => {
    const batch = this.#pending;
    let seen: boolean[];
    try {
      seen = this.#write(batch);
    } catch (e) {
      if (isBusy(e) && Date.now() <= this.#deadline) {
        // The lock is held for microseconds: try again after other work, then a moment later.
        if (this.#attempts++ < 50) setImmediate(this.#flush);
        else setTimeout(this.#flush, 1);
        return;
      }
      this.#pending = [];
      this.#attempts = 0;
      const fault = busyAsFault(e);
      for (const p of batch) p.reject(fault);
      return;
    }
    this.#pending = [];
    this.#attempts = 0;
    batch.forEach((p, i) => p.resolve(seen[i]!));
  };

  /** Prunes when due, then writes the entries in one transaction: whether each was seen. */
  #write(batch: readonly Pending[]): boolean[] {
    const nowMs = batch[batch.length - 1]!.nowMs;
    if (nowMs - this.#lastPrune >= REPLAY_PRUNE_INTERVAL_MS) {
      const { changes } = this.#prune.run(expiryPrefix(nowMs + 1));
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
    // Inside a caller's own transaction (tests), the entries join it, one by one.
    if (this.#db.inTransaction) return this.#eachAlone(batch);
    this.#begin.run();
    try {
      let seen: boolean[];
      if (this.#allNew(batch)) seen = batch.map(() => false);
      else {
        // Some entry was there already: the batch again, entry by entry, to learn which.
        this.#rollback.run();
        this.#begin.run();
        seen = this.#eachAlone(batch);
      }
      this.#commit.run();
      return seen;
    } catch (e) {
      if (this.#db.inTransaction) this.#rollback.run();
      throw e;
    }
  }

  /**
   * Writes the batch with one INSERT of all its rows (a batch past REPLAY_ROWS_PER_INSERT takes
   * several): true when every entry was new, as almost every batch is; the rows written tell. A
   * row per statement cost more than the commit's share of a request, and a batch written in
   * statements of powers of two (three for a usual turn) cost more than one of its own size.
   */
  #allNew(batch: readonly Pending[]): boolean {
    for (let at = 0; at < batch.length; at += REPLAY_ROWS_PER_INSERT) {
      const rows = Math.min(REPLAY_ROWS_PER_INSERT, batch.length - at);
      const entries = batch.slice(at, at + rows).map((p) => p.entry);
      if (this.#insertOf(rows).run(entries).changes !== rows) return false;
    }
    return true;
  }

  #insertOf(rows: number): Statement {
    let insert = this.#inserts.get(rows);
    if (insert === undefined) {
      const values = Array.from({ length: rows }, () => '(?)').join(', ');
      insert = this.#db.prepare(
        `INSERT INTO replay_entry (entry) VALUES ${values} ON CONFLICT DO NOTHING`,
      );
      this.#inserts.set(rows, insert);
    }
    return insert;
  }

  /**
   * Writes each entry alone: one already there was seen, unless its window has passed (its pruning
   * is due).
   */
  #eachAlone(batch: readonly Pending[]): boolean[] {
    // A new entry is written (1 change); one already there is not (0).
    const insert = this.#insertOf(1);
    return batch.map((p) => insert.run(p.entry).changes === 0 && p.expiresAtMs > p.nowMs);
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
  db.exec(REPLAY_ENTRY_TABLE);
  const earlier = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'replay_record'")
    .get();
  // An earlier version's record in this file: its live entries move to the new table, at once.
  if (earlier)
    db.transaction(() => {
      keepEntries(db, liveEntries(db, Date.now()));
      db.exec('DROP TABLE replay_record');
    }).immediate();
  return db;
}

/** The entries of an earlier version's table `replay_record` still inside their window. */
const liveEntries = (db: Db, nowMs: number) =>
  db
    .prepare('SELECT digest, expires_at AS expiresAt FROM replay_record WHERE expires_at > ?')
    .all(nowMs) as { digest: Buffer; expiresAt: number }[];

function keepEntries(replay: Db, live: readonly { digest: Buffer; expiresAt: number }[]): void {
  const keep = replay.prepare('INSERT INTO replay_entry (entry) VALUES (?) ON CONFLICT DO NOTHING');
  for (const e of live) keep.run(entryOf(e.digest, e.expiresAt));
}

/**
 * At start-up: entries still inside their window that an earlier version kept in the database
 * itself move to the replay file, so an upgrade's restart refuses them too. Copied and committed
 * first, then deleted: a crash in between leaves an entry in both places, never in neither.
 */
export function moveReplayEntries(db: Db, replay: Db, nowMs: number): void {
  const live = liveEntries(db, nowMs);
  if (live.length > 0) replay.transaction(() => keepEntries(replay, live)).immediate();
  db.prepare('DELETE FROM replay_record').run();
}
