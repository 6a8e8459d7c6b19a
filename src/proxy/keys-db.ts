// Secrets from the reference service's database (the keys `evgen keys create` made): each API key
// looked up once, then kept for a while (bounded in count, and no key longer than any real one), so
// a busy proxy reads the database rarely and still sees a key created or revoked since.
import type { ReferenceDatabase } from '../reference/database.js';
import { lookupKey } from '../reference/store/service-reads.js';
import type { SecretLookup } from './secrets.js';

const KEEP_MS = 30_000;
const MAX_KEYS = 1_000;
/** Longer than any key `evgen keys create` makes: not looked up, not kept. */
export const MAX_KEY_LENGTH = 200;

export function databaseLookup(
  db: ReferenceDatabase,
  now: () => number = Date.now,
): { lookup: SecretLookup; known: () => string[] } {
  const cache = new Map<string, { secret: string | undefined; at: number }>();
  return {
    async lookup(apiKey) {
      if (apiKey.length > MAX_KEY_LENGTH) return undefined;
      const hit = cache.get(apiKey);
      if (hit && now() - hit.at < KEEP_MS) return hit.secret;
      const secret = (await db.run(lookupKey(apiKey)))?.secret;
      if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value!);
      cache.set(apiKey, { secret, at: now() });
      return secret;
    },
    known: () => [...cache.values()].flatMap((v) => (v.secret === undefined ? [] : [v.secret])),
  };
}
