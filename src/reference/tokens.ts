// Contact tokens (GenerateTokenForContact is not in the document: tokens are issued by the operator
// command `evgen tokens create`). VerifyTokenForContact accepts tokenType ContactRegistration; a
// single-use token works once; expired, used and unknown tokens are NotFound faults saying which.
import { randomBytes } from 'node:crypto';
import type { Db } from './db/open.js';

export const TOKEN_TYPE = 'ContactRegistration';

/** `15m`, `24h`, `7d`, `30s` → milliseconds. */
export function parseDuration(s: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(s.trim());
  if (!m) throw new Error(`duration must look like 30s, 15m, 24h or 7d, got "${s}"`);
  return (
    Number(m[1]) *
    { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd']
  );
}

export function createToken(
  db: Db,
  o: { contactId: number; singleUse: boolean; ttlMs?: number; now?: number },
): { token: string; expiresAt: string | null } {
  if (!db.prepare('SELECT 1 FROM contact WHERE id = ?').get(o.contactId))
    throw new Error(`contact ${o.contactId} does not exist`);
  const now = o.now ?? Date.now();
  const token = randomBytes(24).toString('base64url');
  const expiresAt = o.ttlMs === undefined ? null : new Date(now + o.ttlMs).toISOString();
  db.prepare(
    'INSERT INTO contact_token (contact_id, token_type, value, single_use, expires_at, created) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(
    o.contactId,
    TOKEN_TYPE,
    token,
    o.singleUse ? 1 : 0,
    expiresAt,
    new Date(now).toISOString(),
  );
  return { token, expiresAt };
}
