// Contact tokens (GenerateTokenForContact is not in the document: tokens are issued by the operator
// command `evgen tokens create`). VerifyTokenForContact accepts tokenType ContactRegistration; a
// single-use token works once; expired, used and unknown tokens are NotFound faults saying which.
import { randomBytes } from 'node:crypto';
import { ServiceFault } from '@evgen/runtime';
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

export function verifyToken(
  db: Db,
  tokenType: string,
  tokenValue: string,
  now = Date.now(),
): { ContactId: number; ContactEmail: string } {
  if (tokenType !== TOKEN_TYPE)
    throw new ServiceFault(
      'InvalidParameter',
      `tokenType must be ${TOKEN_TYPE}, got "${tokenType}"`,
    );
  return db
    .transaction(() => {
      const t = db
        .prepare(
          'SELECT t.id, t.contact_id, t.single_use, t.expires_at, t.used_at, c.email FROM contact_token t JOIN contact c ON c.id = t.contact_id WHERE t.value = ? AND t.token_type = ?',
        )
        .get(tokenValue, tokenType) as
        | {
            id: number;
            contact_id: number;
            single_use: number;
            expires_at: string | null;
            used_at: string | null;
            email: string;
          }
        | undefined;
      if (!t) throw new ServiceFault('NotFound', 'token is unknown');
      if (t.expires_at !== null && Date.parse(t.expires_at) <= now)
        throw new ServiceFault('NotFound', `token expired at ${t.expires_at}`);
      if (t.single_use && t.used_at !== null)
        throw new ServiceFault('NotFound', `single-use token was already used at ${t.used_at}`);
      if (t.single_use)
        db.prepare('UPDATE contact_token SET used_at = ? WHERE id = ?').run(
          new Date(now).toISOString(),
          t.id,
        );
      return { ContactId: t.contact_id, ContactEmail: t.email };
    })
    .immediate();
}
