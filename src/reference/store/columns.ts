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
  /** The SELECT expressions, comma-separated, in the list's order. */
  readonly exprs: string;
  /** The row from values selected in the order of `exprs`. */
  readonly row: RowFunction<R>;

  constructor(columns: ColumnsOf<R>) {
    const entries = Object.entries(columns) as [keyof R & string, Column][];
    this.exprs = entries.map(([, c]) => c.sql).join(', ');
    this.row = rowFunction(entries.map(([name, c]) => ({ name, bool: c.kind === 'bool' })));
  }

  rows(values: readonly (readonly unknown[])[]): R[] {
    return values.map(this.row);
  }
}

const FIELD_NAME = /^[A-Za-z_$][\w$]*$/;
type Field = { readonly name: string; readonly bool: boolean };
type RowFunction<R> = (values: readonly unknown[]) => R;

/**
 * The function that makes a row from its values: compiled once per list, or filled field by field
 * where node runs with --disallow-code-generation-from-strings. The names are the list's own keys
 * (code, never input), checked to be plain identifiers (`__proto__` would set the prototype), so
 * the compiled text holds nothing else.
 */
function rowFunction<R>(fields: readonly Field[]): RowFunction<R> {
  for (const { name } of fields)
    if (!FIELD_NAME.test(name) || name === '__proto__')
      throw new Error(`column list: ${JSON.stringify(name)} is not a plain field name`);
  try {
    return compileRow(fields);
  } catch (e) {
    if (e instanceof EvalError) return fillRow(fields);
    throw e;
  }
}

/**
 * One object literal with the list's fields in order. Filling `{}` field by field costs many times
 * more on a page of attendees (each store a megamorphic keyed store that also changes the
 * object's map).
 */
function compileRow<R>(fields: readonly Field[]): RowFunction<R> {
  const props = fields.map(
    ({ name, bool }, i) => `${name}: ${bool ? `v[${i}] === 1 || v[${i}] === true` : `v[${i}]`}`,
  );
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- field names checked by rowFunction
  return new Function('v', `return { ${props.join(', ')} };`) as RowFunction<R>;
}

/** The same row, filled field by field: where code generation is switched off. */
export function fillRow<R>(fields: readonly Field[]): RowFunction<R> {
  return (values) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const v = values[i];
      out[fields[i]!.name] = fields[i]!.bool ? v === 1 || v === true : v;
    }
    return out as R;
  };
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
