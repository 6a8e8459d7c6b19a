// Prepared statements cached per database and SQL text: preparing costs far more than running a
// small query, and handlers run the same few statements on every request.
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';

const caches = new WeakMap<Db, Map<string, Statement>>();

export function cachedPrepare(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}

/** The database with `prepare` answered from the cache; everything else is the database itself. */
export function withStatementCache(db: Db): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return (sql: string) => cachedPrepare(target, sql);
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
