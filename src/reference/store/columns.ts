// Column lists: one list per query says which value goes in which field, and both the SELECT list
// and the row mapping come from it, so reordering, adding or removing a column can never shift a
// value into another field. The list is checked against the row type it fills (a missing field,
// an extra one or a wrong kind does not compile). Dialect-neutral: each store selects the
// expressions its own way (SQLite as JSON arrays, a PostgreSQL store as array rows) and maps them
// with `row`.

export type Kind = 'int' | 'text' | 'bool' | 'intOrNull' | 'textOrNull';
export interface Column<K extends Kind = Kind> {
  readonly sql: string;
  readonly kind: K;
}

export const int = (sql: string): Column<'int'> => ({ sql, kind: 'int' });
export const text = (sql: string): Column<'text'> => ({ sql, kind: 'text' });
/** 0/1 (SQLite) or false/true (PostgreSQL) → boolean. */
export const bool = (sql: string): Column<'bool'> => ({ sql, kind: 'bool' });
export const intOrNull = (sql: string): Column<'intOrNull'> => ({ sql, kind: 'intOrNull' });
export const textOrNull = (sql: string): Column<'textOrNull'> => ({ sql, kind: 'textOrNull' });

type KindOf<T> = [T] extends [boolean]
  ? 'bool'
  : [T] extends [number]
    ? 'int'
    : [T] extends [string]
      ? 'text'
      : [T] extends [number | null]
        ? 'intOrNull'
        : [T] extends [string | null]
          ? 'textOrNull'
          : never;

/** The columns that fill a row of type R: one per field, of the field's kind. */
export type ColumnsOf<R> = { readonly [K in keyof R]-?: Column<KindOf<R[K]>> };

export class ColumnList<R> {
  readonly #names: readonly (keyof R & string)[];
  readonly #bools: readonly boolean[];
  /** The SELECT expressions, comma-separated, in the list's order. */
  readonly exprs: string;

  constructor(columns: ColumnsOf<R>) {
    const entries = Object.entries(columns) as [keyof R & string, Column][];
    this.#names = entries.map(([name]) => name);
    this.#bools = entries.map(([, c]) => c.kind === 'bool');
    this.exprs = entries.map(([, c]) => c.sql).join(', ');
  }

  /** The row from values selected in the order of `exprs`. */
  row(values: readonly unknown[]): R {
    const out: Record<string, unknown> = {};
    const names = this.#names;
    for (let i = 0; i < names.length; i++) {
      const v = values[i];
      out[names[i]!] = this.#bools[i] ? v === 1 || v === true : v;
    }
    return out as R;
  }

  rows(values: readonly (readonly unknown[])[]): R[] {
    return values.map((v) => this.row(v));
  }
}

/** `columns<Row>({...})`: a column list checked against the row type it fills. */
export const columns = <R>(c: ColumnsOf<R>): ColumnList<R> => new ColumnList<R>(c);

/** The columns of a contact's name and address, from the contact table under `alias`. */
export const addressColumns = (alias: string) => {
  const c = (column: string) => `${alias}${column}`;
  return {
    title: text(c('title')),
    forename: text(c('forename')),
    surname: text(c('surname')),
    organisation: text(c('organisation')),
    occupation: text(c('occupation')),
    paName: text(c('pa_name')),
    line1: text(c('line1')),
    line2: text(c('line2')),
    line3: text(c('line3')),
    town: text(c('town')),
    county: text(c('county')),
    postcode: text(c('postcode')),
    country: text(c('country')),
    email: text(c('email')),
    telephone: text(c('telephone')),
    fax: text(c('fax')),
    mobile: text(c('mobile')),
    website: text(c('website')),
    marketingOptOut: bool(c('marketing_opt_out')),
  };
};
