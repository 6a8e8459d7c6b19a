// API keys of the reference service (gap key-lifecycle): created, listed and revoked by operator
// commands; a revoked key fails authentication. Secrets are random and shown once at creation.
// Store programs, so the commands work the same on SQLite and PostgreSQL, and every node that
// shares the database sees a key as soon as it is created or revoked.
import { randomBytes } from 'node:crypto';
import { columns, text, textOrNull } from './store/columns.js';
import { perDialect, rows, run, statement, value, type Program } from './store/program.js';

export interface KeyInfo {
  readonly name: string;
  readonly apiKey: string;
  readonly created: string;
  readonly revoked: string | null;
}

const INSERT_KEY = statement(
  'INSERT INTO api_key (name, api_key, secret, created) VALUES (?, ?, ?, ?)',
);
const KEY = columns<KeyInfo>({
  name: text('name'),
  apiKey: text('api_key'),
  created: text('created'),
  revoked: textOrNull('revoked_at'),
});
const LIST_KEYS = statement(`SELECT ${KEY.exprs} FROM api_key ORDER BY id`);
const REVOKE_KEY = statement(
  'UPDATE api_key SET revoked_at = ? WHERE api_key = ? AND revoked_at IS NULL',
);

export function* createKey(name: string): Program<{ apiKey: string; secretKey: string }> {
  const apiKey = `ak_${randomBytes(12).toString('hex')}`;
  const secretKey = randomBytes(24).toString('base64url');
  yield* run(INSERT_KEY, name, apiKey, secretKey, new Date().toISOString());
  return { apiKey, secretKey };
}

export const listKeys = (): Program<KeyInfo[]> => rows(KEY, LIST_KEYS);

// The demo key's writers (nodes starting at once) queue here: SQLite's write transaction already
// serialises them; PostgreSQL's default isolation would let each insert one.
const DEMO_KEY_LOCK = perDialect({
  sqlite: 'SELECT 1',
  postgres: 'SELECT pg_advisory_xact_lock(7265676502)',
});
const ANY_KEY = statement('SELECT 1 FROM api_key LIMIT 1');

/** The demo key, created when no key was ever issued (revoked ones count); else undefined. */
export function* ensureDemoKey(): Program<{ apiKey: string; secretKey: string } | undefined> {
  yield* value(DEMO_KEY_LOCK);
  if ((yield* value(ANY_KEY)) !== undefined) return undefined;
  return yield* createKey('demo');
}

/** False when there is no active key `apiKey`. */
export function* revokeKey(apiKey: string): Program<boolean> {
  return (yield* run(REVOKE_KEY, new Date().toISOString(), apiKey)) === 1;
}
