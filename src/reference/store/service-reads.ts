// What the service itself reads, whatever the dialect: the key lookup of every request and the
// health check.
import { columns, text } from './columns.js';
import { row, statement, value, type Program } from './program.js';
import type { StoreHealth } from './store.js';

const API_KEY = columns<{ secret: string; name: string }>({
  secret: text('secret'),
  name: text('name'),
});
const API_KEY_SQL = statement(
  `SELECT ${API_KEY.exprs} FROM api_key WHERE api_key = ? AND revoked_at IS NULL`,
);

/** The server's key lookup: revoked and unknown keys give undefined. */
export const lookupKey = (apiKey: string) => row(API_KEY, API_KEY_SQL, apiKey);

const SCHEMA_VERSION = statement('SELECT max(version) FROM schema_migrations');
const PROBE = statement('SELECT count(*) FROM event');

/** The schema version, after a read of the data itself (a database can answer one and not the other). */
export function* storeHealth(): Program<StoreHealth> {
  const schemaVersion = (yield* value<number | null>(SCHEMA_VERSION)) ?? 0;
  yield* value(PROBE);
  return { ok: true, schemaVersion };
}
