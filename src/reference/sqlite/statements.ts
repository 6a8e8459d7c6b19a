// Prepared statements, cached per connection in a bounded LRU: preparing costs far more than
// running a small query, and handlers run the same few statements on every request. Call sites
// say `sql.cached(text)`, so caching is visible where it happens. Every SQL text of the store is
// a constant (search included: its SQL has one shape whatever the query), so the bound is never
// reached in normal operation; it exists so that no input can grow the cache.
import type { Statement } from 'better-sqlite3';
import {
  ListParam,
  type Param,
  type Program,
  type Query,
  type RowMapper,
} from '../store/program.js';
import type { Db } from './open.js';
import { Lru } from './lru.js';

export const STATEMENT_CACHE_SIZE = 256;

export class StatementCache {
  readonly #statements: Lru<Statement>;
  constructor(
    readonly db: Db,
    limit = STATEMENT_CACHE_SIZE,
  ) {
    this.#statements = new Lru(limit);
  }

  /** The prepared statement for `sql`, prepared on first use; the least recently used goes first. */
  cached(sql: string): Statement {
    let stmt = this.#statements.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  get size(): number {
    return this.#statements.size;
  }

  /**
   * The rows of a query whose one value is `json_group_array(json_array(<list.exprs>) ...)`. On
   * Node 20 better-sqlite3 converts every value through its own V8 call; for long or wide
   * results SQLite writing JSON and one JSON.parse cost a third of that (the attendees of a
   * 100-booking page: 1.5 ms as row objects, 0.5 ms as JSON). Exact for TEXT and INTEGER
   * columns; SQLite would print a REAL with 15 digits, so no REAL column is read this way.
   */
  jsonRows<R>(list: RowMapper<R>, sql: string, ...params: unknown[]): R[] {
    const text = this.cached(sql)
      .pluck()
      .get(...params) as string;
    return list.rows(JSON.parse(text) as unknown[][]);
  }

  /** The first row of a plain query selecting `list.exprs`, or undefined. */
  row<R>(list: RowMapper<R>, sql: string, ...params: unknown[]): R | undefined {
    const values = this.cached(sql)
      .raw()
      .get(...params) as unknown[] | undefined;
    return values === undefined ? undefined : list.row(values);
  }

  /** Every row of a plain query selecting `list.exprs` (short results). */
  rows<R>(list: RowMapper<R>, sql: string, ...params: unknown[]): R[] {
    return list.rows(
      this.cached(sql)
        .raw()
        .all(...params) as unknown[][],
    );
  }

  /** The one value of the first row, or undefined. */
  value<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.cached(sql)
      .pluck()
      .get(...params) as T | undefined;
  }

  values<T>(sql: string, ...params: unknown[]): T[] {
    return this.cached(sql)
      .pluck()
      .all(...params) as T[];
  }
}

/** A list parameter as SQLite reads it: one JSON text, read back with json_each. */
const bound = (params: readonly Param[]) =>
  params.map((p) => (p instanceof ListParam ? JSON.stringify(p.values) : p));

/** One query of a store program, on this connection. */
function execute(sql: StatementCache, q: Query): unknown {
  const text = q.statement.sqlite;
  const params = bound(q.params);
  switch (q.kind) {
    case 'row':
      return sql.row(q.list, text, ...params);
    case 'rows':
      return q.statement.sqliteJson
        ? sql.jsonRows(q.list, text, ...params)
        : sql.rows(q.list, text, ...params);
    case 'value':
      return sql.value(text, ...params);
    case 'values':
      return sql.values(text, ...params);
    case 'run':
      return sql.cached(text).run(...params).changes;
  }
}

/** Runs a store program to its end, synchronously (call inside a transaction when it reads twice). */
export function runSqlite<T>(sql: StatementCache, program: Program<T>): T {
  let step = program.next();
  while (!step.done) step = program.next(execute(sql, step.value));
  return step.value;
}
