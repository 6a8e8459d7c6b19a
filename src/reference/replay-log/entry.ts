// A replay entry's bytes, the same in the SQLite record, the log and PostgreSQL's digest: 16
// bytes, its window's end (ms, big-endian), then the first 8 bytes of the request key's SHA-256.
import { hash } from 'node:crypto';

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
export function expiryPrefix(ms: number): Buffer {
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
export function entryOf(digest: Uint8Array, expiresAtMs: number): Buffer {
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

/** The end of the window of the entry at `b[at..]` (ms). */
export const windowEndOf = (b: Buffer, at = 0): number =>
  b.readUInt32BE(at) * 2 ** 32 + b.readUInt32BE(at + 4);
