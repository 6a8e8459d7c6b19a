// The EventProfileSearch query syntax (spec/gaps.yaml search-query-syntax): words and "quoted
// phrases" match Title, Description, Code or Location (all must match); field:value filters from a
// whitelist narrow further. Parsed into a SearchFilter whose values the store binds as data: they
// never become SQL. The query is bounded (length, terms, term length): a query past a bound is an
// InvalidParameter fault naming the bound, never work for the database.
import { ValueError, parseDateTimeLexical, quoteInput } from '@evgen/runtime/internal';
import { fault } from './faults.js';
import type { SearchFilter } from './store/store.js';

export const MAX_QUERY_LENGTH = 2_000;
export const MAX_SEARCH_TERMS = 32;
export const MAX_TERM_LENGTH = 200;

type Field = Exclude<keyof SearchFilter, 'words'>;
type Mutable = { -readonly [K in keyof SearchFilter]: SearchFilter[K][number][] };

const refuse = (message: string) => fault('InvalidParameter', `searchQuery: ${message}`);
/** A real date (read as the dateTime parameters are: 02-30, month 13 and year 0 are refused). */
function date(v: string, field: string): string {
  const real = /^\d{4}-\d{2}-\d{2}$/.test(v) && isDateTime(`${v}T00:00:00`);
  if (!real) throw refuse(`${field}: expects a date yyyy-MM-dd, got ${quoteInput(v)}`);
  return v;
}
function isDateTime(v: string): boolean {
  try {
    parseDateTimeLexical(v);
    return true;
  } catch (e) {
    if (e instanceof ValueError) return false;
    throw e;
  }
}
function flag(v: string): boolean {
  if (v !== 'true' && v !== 'false')
    throw refuse(`archived: expects true or false, got ${quoteInput(v)}`);
  return v === 'true';
}

const FIELDS: { [F in Field]: (f: Mutable, v: string) => void } = {
  code: (f, v) => f.code.push(v),
  country: (f, v) => f.country.push(v),
  type: (f, v) => f.type.push(v),
  status: (f, v) => f.status.push(v),
  series: (f, v) => f.series.push(v),
  location: (f, v) => f.location.push(v),
  from: (f, v) => f.from.push(`${date(v, 'from')}T00:00:00`),
  to: (f, v) => f.to.push(`${date(v, 'to')}T23:59:59`),
  archived: (f, v) => f.archived.push(flag(v)),
};
export const SEARCH_FIELDS = Object.keys(FIELDS);

/** Terms of a query: [field, value] for filters, [undefined, text] for free text. */
export function tokenize(query: string): [string | undefined, string][] {
  if (query.length > MAX_QUERY_LENGTH)
    throw refuse(`longer than ${MAX_QUERY_LENGTH} characters (${query.length})`);
  const out: [string | undefined, string][] = [];
  const re = /\s*(?:([A-Za-z]+):)?(?:"([^"]*)"|(\S+))/g;
  for (let m = re.exec(query); m; m = re.exec(query)) {
    const value = m[2] ?? m[3] ?? '';
    if (m[1] === undefined && value === '') continue;
    if (value.length > MAX_TERM_LENGTH)
      throw refuse(`a term is longer than ${MAX_TERM_LENGTH} characters (${value.length})`);
    out.push([m[1]?.toLowerCase(), value]);
    if (out.length > MAX_SEARCH_TERMS) throw refuse(`more than ${MAX_SEARCH_TERMS} terms`);
  }
  if (query.split('"').length % 2 === 0) throw refuse('unclosed quotation mark');
  return out;
}

export function parseSearch(query: string): SearchFilter {
  const f: Mutable = {
    words: [],
    code: [],
    country: [],
    type: [],
    status: [],
    series: [],
    location: [],
    from: [],
    to: [],
    archived: [],
  };
  for (const [field, value] of tokenize(query)) {
    if (field === undefined) f.words.push(value);
    else if (Object.hasOwn(FIELDS, field)) FIELDS[field as Field](f, value);
    else throw refuse(`unknown field ${quoteInput(field)}; allowed: ${SEARCH_FIELDS.join(', ')}`);
  }
  return f;
}
