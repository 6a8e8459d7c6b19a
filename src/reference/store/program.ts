// Store programs: the reads and writes of the reference service written once, for every dialect.
// A program is a generator that yields the queries it needs and gets each answer back, so the
// same code runs synchronously on SQLite (inside one better-sqlite3 transaction, where nothing may
// wait) and asynchronously on PostgreSQL (a round trip per query). Each statement carries its SQL
// per dialect: one text where the dialects agree, written with `?` placeholders, and the
// fragments (or the whole text) of each where they must differ.

/** The SQL dialects the reference service runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** Maps a row of values, selected in a column list's order, to its named fields (columns.ts). */
export interface RowMapper<R> {
  row(values: readonly unknown[]): R;
  rows(values: readonly (readonly unknown[])[]): R[];
}

/** A list of values bound as one parameter: SQLite reads it as JSON, PostgreSQL as an array. */
export class ListParam {
  constructor(readonly values: readonly (string | number)[]) {}
}
export type Param = string | number | null | Uint8Array | ListParam;
export const list = (values: readonly (string | number)[]) => new ListParam(values);

/** One statement as each dialect says it; PostgreSQL's text has $1, $2… for the `?`s. */
export interface Statement {
  readonly sqlite: string;
  readonly postgres: string;
  /** SQLite answers with one JSON text, json_group_array(json_array(<the list's columns>)). */
  readonly sqliteJson: boolean;
  /** A name unique per statement text (PostgreSQL prepares named statements once per connection). */
  readonly name: string;
}

/** Where the dialects' SQL differs inside statements otherwise written once. */
export interface Fragments {
  readonly dialect: Dialect;
  /** `column` is one of the values of a list parameter (`?`) of integers. */
  inIds(column: string): string;
  /** A table `t` with one column `value`: the values of a list parameter (`?`) of this type. */
  each(type: 'int' | 'text'): string;
  /** `column` contains `value` (a LIKE pattern with `\` escapes), ignoring ASCII case only. */
  containsNocase(column: string, value: string): string;
  /** `column` equals the parameter (`?`), ignoring ASCII case only (SQLite's NOCASE). */
  equalsNocase(column: string): string;
  /** Locks the rows read for the rest of the transaction (SQLite's write lock already does). */
  forUpdate(table: string): string;
}

const SQLITE: Fragments = {
  dialect: 'sqlite',
  inIds: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  each: () => 'json_each(?) t',
  containsNocase: (column, value) => `${column} LIKE '%' || ${value} || '%' ESCAPE '\\'`,
  equalsNocase: (column) => `${column} = ? COLLATE NOCASE`,
  forUpdate: () => '',
};
// ascii_lower is defined by the PostgreSQL schema: lower() would fold every script, NOCASE and
// SQLite's LIKE fold A-Z only, and the answers must be the same on both.
const POSTGRES: Fragments = {
  dialect: 'postgres',
  inIds: (column) => `${column} = ANY(?::bigint[])`,
  each: (type) => `unnest(?::${type === 'int' ? 'bigint' : 'text'}[]) AS t(value)`,
  containsNocase: (column, value) =>
    `ascii_lower(${column}) LIKE '%' || ascii_lower(${value}) || '%' ESCAPE '\\'`,
  equalsNocase: (column) => `ascii_lower(${column}) = ascii_lower(?)`,
  forUpdate: (table) => ` FOR NO KEY UPDATE OF ${table}`,
};
export const FRAGMENTS: Readonly<Record<Dialect, Fragments>> = {
  sqlite: SQLITE,
  postgres: POSTGRES,
};

/** `?` → `$1`, `$2`…; statements of the store hold no `?` in a literal or an identifier. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

let statements = 0;
const make = (sqlite: string, postgres: string, sqliteJson: boolean): Statement => ({
  sqlite,
  postgres: numbered(postgres),
  sqliteJson,
  name: `evgen_${++statements}`,
});

/**
 * A statement written once: a text, or a template given each dialect's fragments. `sqliteJson`:
 * SQLite's text selects its rows as one JSON text (see Statement).
 */
export function statement(sql: string | ((d: Fragments) => string), sqliteJson = false): Statement {
  return typeof sql === 'string'
    ? make(sql, sql, sqliteJson)
    : make(sql(FRAGMENTS.sqlite), sql(FRAGMENTS.postgres), sqliteJson);
}

/** A statement each dialect says its own way. */
export function perDialect(sql: {
  readonly sqlite: string;
  readonly postgres: string;
  readonly sqliteJson?: boolean;
}): Statement {
  return make(sql.sqlite, sql.postgres, sql.sqliteJson ?? false);
}

export type Query =
  | {
      readonly kind: 'row' | 'rows';
      readonly list: RowMapper<unknown>;
      readonly statement: Statement;
      readonly params: readonly Param[];
    }
  | {
      readonly kind: 'value' | 'values' | 'run';
      readonly statement: Statement;
      readonly params: readonly Param[];
    };

/** A program: yields queries, gets each one's answer, returns T. */
export type Program<T> = Generator<Query, T, unknown>;

// Each helper yields one query and types its answer: the runner (sqlite-run.ts, pg/run.ts) gives
// back exactly what the kind says (a row of the list or undefined, its rows, a value...).

/** The first row, or undefined. */
export function* row<R>(
  list: RowMapper<R>,
  s: Statement,
  ...params: Param[]
): Program<R | undefined> {
  return (yield { kind: 'row', list, statement: s, params }) as R | undefined;
}
/** Every row. */
export function* rows<R>(list: RowMapper<R>, s: Statement, ...params: Param[]): Program<R[]> {
  return (yield { kind: 'rows', list, statement: s, params }) as R[];
}
/** The first row's one value, or undefined when there is no row. */
export function* value<T>(s: Statement, ...params: Param[]): Program<T | undefined> {
  return (yield { kind: 'value', statement: s, params }) as T | undefined;
}
/** The one value of every row. */
export function* values<T>(s: Statement, ...params: Param[]): Program<T[]> {
  return (yield { kind: 'values', statement: s, params }) as T[];
}
/** A write: the number of rows it changed. */
export function* run(s: Statement, ...params: Param[]): Program<number> {
  return (yield { kind: 'run', statement: s, params }) as number;
}
