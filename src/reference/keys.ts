// API keys of the reference service (gap key-lifecycle): created, listed and revoked by operator
// commands; a revoked key fails authentication. Secrets are random and shown once at creation.
import { randomBytes } from 'node:crypto';
import type { Db } from './db/open.js';

export interface KeyInfo {
  readonly name: string;
  readonly apiKey: string;
  readonly created: string;
  readonly revoked: string | null;
}

export function createKey(db: Db, name: string): { apiKey: string; secretKey: string } {
  const apiKey = `ak_${randomBytes(12).toString('hex')}`;
  const secretKey = randomBytes(24).toString('base64url');
  db.prepare('INSERT INTO api_key (name, api_key, secret, created) VALUES (?, ?, ?, ?)').run(
    name,
    apiKey,
    secretKey,
    new Date().toISOString(),
  );
  return { apiKey, secretKey };
}

/** Whether any key was ever issued (revoked ones count). */
export const hasKeys = (db: Db): boolean =>
  db.prepare('SELECT 1 FROM api_key LIMIT 1').get() !== undefined;

export function listKeys(db: Db): KeyInfo[] {
  return (
    db.prepare('SELECT name, api_key, created, revoked_at FROM api_key ORDER BY id').all() as {
      name: string;
      api_key: string;
      created: string;
      revoked_at: string | null;
    }[]
  ).map((k) => ({
    name: k.name,
    apiKey: k.api_key,
    created: k.created,
    revoked: k.revoked_at,
  }));
}

export function revokeKey(db: Db, apiKey: string): boolean {
  return (
    db
      .prepare('UPDATE api_key SET revoked_at = ? WHERE api_key = ? AND revoked_at IS NULL')
      .run(new Date().toISOString(), apiKey).changes === 1
  );
}

/** The server's key lookup: revoked and unknown keys give undefined. */
export function keyLookup(db: Db) {
  const find = db.prepare(
    'SELECT secret, name FROM api_key WHERE api_key = ? AND revoked_at IS NULL',
  );
  return (apiKey: string) =>
    Promise.resolve(find.get(apiKey) as { secret: string; name: string } | undefined);
}
