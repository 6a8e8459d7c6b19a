// Multi-row INSERTs for seeding: rows gather in memory and go to SQLite up to ROWS_PER_INSERT at
// a time. One statement per row made seeding 1,000,000 bookings some ten million calls into
// SQLite; this makes it a fiftieth of that. A table's parents (those its foreign keys and the
// attendee-count triggers read) are written out before it, so every row finds what it refers
// to. Call flush() before the transaction that holds the rows commits.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.js';

/** Rows per statement: far below SQLite's 32,766 bound parameters for the widest table (12). */
export const ROWS_PER_INSERT = 50;

export class BatchInsert {
  readonly #statements = new Map<number, Statement>();
  readonly #sql: (rows: number) => string;
  #values: unknown[] = [];
  #rows = 0;

  constructor(
    private readonly db: Db,
    table: string,
    columns: readonly string[],
    private readonly parents: readonly BatchInsert[] = [],
  ) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    this.#sql = (rows) =>
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rows).fill(row).join(', ')}`;
  }

  run(...values: unknown[]): void {
    for (const v of values) this.#values.push(v);
    if (++this.#rows === ROWS_PER_INSERT) this.flush();
  }

  flush(): void {
    if (this.#rows === 0) return;
    for (const p of this.parents) p.flush();
    let stmt = this.#statements.get(this.#rows);
    if (!stmt) this.#statements.set(this.#rows, (stmt = this.db.prepare(this.#sql(this.#rows))));
    stmt.run(this.#values);
    this.#values = [];
    this.#rows = 0;
  }
}
