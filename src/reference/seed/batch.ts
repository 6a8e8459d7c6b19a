// Multi-row INSERTs for seeding: rows gather in memory and go to SQLite up to ROWS_PER_INSERT at
// a time. One statement per row made seeding 1,000,000 bookings some ten million calls into
// SQLite; this makes it a fiftieth of that. A table's parents (those its foreign keys and the
// attendee-count triggers read) are written out before it, so every row finds what it refers
// to. Call flush() before the transaction that holds the rows commits.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../sqlite/open.js';

/** Rows per statement: far below SQLite's 32,766 bound parameters for the widest table (34). */
export const ROWS_PER_INSERT = 50;

/** A value every row of a table gets: written into the statement, not bound for each row. */
export type Fixed = Readonly<Record<string, string | number>>;

const literal = (v: string | number) =>
  typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`;

export class BatchInsert {
  readonly #statements = new Map<number, Statement>();
  readonly #sql: (rows: number) => string;
  /** The columns each row brings, in order: the others are fixed. */
  readonly #varying: readonly string[];
  #values: unknown[] = [];
  #rows = 0;

  constructor(
    private readonly db: Db,
    readonly table: string,
    columns: readonly string[],
    private readonly parents: readonly BatchInsert[] = [],
    fixed: Fixed = {},
  ) {
    // Binding costs about half a microsecond a value, most of a contact's time (34 columns), so
    // values that never change are part of the statement instead.
    this.#varying = columns.filter((c) => !Object.hasOwn(fixed, c));
    const row = `(${columns.map((c) => (Object.hasOwn(fixed, c) ? literal(fixed[c]!) : '?')).join(', ')})`;
    this.#sql = (rows) =>
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rows).fill(row).join(', ')}`;
  }

  /** One row: the values of the columns not fixed, in their order. */
  run(...values: unknown[]): void {
    if (values.length !== this.#varying.length)
      throw new Error(`${this.table}: ${values.length} values for ${this.#varying.length} columns`);
    for (const v of values) this.#values.push(v);
    if (++this.#rows === ROWS_PER_INSERT) this.flush();
  }

  /** One row by column name: every column not fixed. */
  runRow(row: Readonly<Record<string, unknown>>): void {
    this.run(...this.#varying.map((c) => row[c]));
  }

  flush(): void {
    if (this.#rows === 0) return;
    for (const p of this.parents) p.flush();
    let stmt = this.#statements.get(this.#rows);
    if (!stmt) this.#statements.set(this.#rows, (stmt = this.db.prepare(this.#sql(this.#rows))));
    // As arguments, not one array: better-sqlite3 reads an array's elements through a slower path.
    stmt.run(...this.#values);
    this.#values = [];
    this.#rows = 0;
  }
}

/** A table's columns in their order (for a table whose every column the seed fills). */
export function columnsOf(db: Db, table: string): string[] {
  return db
    .prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`)
    .pluck()
    .all(table) as string[];
}

/**
 * Runs `fill` with the explicit indexes of `tables` dropped, then creates them again (call inside
 * a transaction, so a failure restores them): an index built over rows in place sorts them once,
 * where one kept up to date took each row at a random place (seeding 200,000 bookings: 21 s
 * against 15). The indexes of UNIQUE constraints stay: they check rows as they go in.
 */
export function withIndexesAside<T>(db: Db, tables: readonly string[], fill: () => T): T {
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')}) ORDER BY rowid`,
    )
    .all(...tables) as { name: string; sql: string }[];
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
  const result = fill();
  for (const i of indexes) db.exec(i.sql);
  return result;
}
