// The replay record as earlier versions kept it, in SQLite: first the table replay_record in the
// database itself (created by a schema migration, kept as it was), then a file of its own beside
// the database (`<database>-replay`, table replay_entry). At start-up the entries still inside
// their window move into the replay log (replay-log/), and both are emptied.
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { entryOf, expiryPrefix } from '../replay-log/entry.js';
import type { ReplayLog } from '../replay-log/replay-log.js';
import { openDatabase, type Db } from './open.js';

/** The file an earlier version kept the replay record in, beside the database at `dbPath`. */
export const replayFileOf = (dbPath: string) => `${realpathSync(dbPath)}-replay`;

const hasTable = (db: Db, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
  undefined;

/** The entries of table replay_record (a digest, its window's end) still inside their window. */
function liveRecords(db: Db, nowMs: number): Buffer[] {
  if (!hasTable(db, 'replay_record')) return [];
  const rows = db
    .prepare('SELECT digest, expires_at AS expiresAt FROM replay_record WHERE expires_at > ?')
    .all(nowMs) as { digest: Buffer; expiresAt: number }[];
  return rows.map((r) => entryOf(r.digest, r.expiresAt));
}

/** The entries of table replay_entry (the log's own bytes) still inside their window. */
function liveEntries(db: Db, nowMs: number): Buffer[] {
  if (!hasTable(db, 'replay_entry')) return [];
  return db
    .prepare('SELECT entry FROM replay_entry WHERE entry >= ?')
    .pluck()
    .all(expiryPrefix(nowMs + 1)) as Buffer[];
}

/**
 * At start-up: the live entries an earlier version kept (in the database at `dbPath`, and in the
 * file beside it) go into `log`, then are deleted there. Kept first, deleted after: a crash in
 * between leaves an entry in both places, never in neither.
 */
export function moveEarlierReplay(db: Db, dbPath: string, log: ReplayLog, nowMs: number): void {
  const file = replayFileOf(dbPath);
  const live = liveRecords(db, nowMs);
  if (existsSync(file)) {
    const earlier = openDatabase(file, { migrate: false });
    try {
      live.push(...liveRecords(earlier, nowMs), ...liveEntries(earlier, nowMs));
    } finally {
      earlier.close();
    }
  }
  if (live.length > 0) log.keep(live);
  db.prepare('DELETE FROM replay_record').run();
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}
