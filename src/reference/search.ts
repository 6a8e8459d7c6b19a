// The EventProfileSearch query syntax (spec/gaps.yaml search-query-syntax): words and "quoted
// phrases" match Title, Description, Code or Location (all must match); field:value filters from a
// whitelist narrow further. Parsed into a parameterised WHERE clause: values are never spliced
// into SQL.
import { ServiceFault } from '@evgen/runtime';

const FIELDS: Record<string, (v: string) => { sql: string; params: unknown[] }> = {
  code: (v) => ({ sql: 'e.code = ?', params: [v] }),
  country: (v) => ({ sql: 'e.country = ?', params: [v] }),
  type: (v) => ({ sql: 'e.type = ?', params: [v] }),
  status: (v) => ({ sql: 'e.status = ?', params: [v] }),
  series: (v) => ({ sql: 'e.series = ?', params: [v] }),
  location: (v) => ({ sql: "e.location LIKE ? ESCAPE '\\'", params: [like(v)] }),
  from: (v) => ({ sql: 'e.start_date >= ?', params: [`${date(v, 'from')}T00:00:00`] }),
  to: (v) => ({ sql: 'e.start_date <= ?', params: [`${date(v, 'to')}T23:59:59`] }),
  archived: (v) => ({ sql: 'e.is_archived = ?', params: [flag(v)] }),
};
export const SEARCH_FIELDS = Object.keys(FIELDS);

const fault = (message: string) => new ServiceFault('InvalidParameter', `searchQuery: ${message}`);
const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
function date(v: string, field: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v))
    throw fault(`${field}: expects a date yyyy-MM-dd, got "${v}"`);
  return v;
}
function flag(v: string): number {
  if (v !== 'true' && v !== 'false') throw fault(`archived: expects true or false, got "${v}"`);
  return v === 'true' ? 1 : 0;
}

/** Terms of a query: [field, value] for filters, [undefined, text] for free text. */
export function tokenize(query: string): [string | undefined, string][] {
  const out: [string | undefined, string][] = [];
  const re = /\s*(?:([A-Za-z]+):)?(?:"([^"]*)"|(\S+))/g;
  for (let m = re.exec(query); m; m = re.exec(query)) {
    const value = m[2] ?? m[3] ?? '';
    if (m[1] === undefined && value === '') continue;
    out.push([m[1]?.toLowerCase(), value]);
  }
  if (query.split('"').length % 2 === 0) throw fault('unclosed quotation mark');
  return out;
}

export function parseSearch(query: string): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of tokenize(query)) {
    if (field === undefined) {
      clauses.push(
        "(e.title LIKE ? ESCAPE '\\' OR e.description LIKE ? ESCAPE '\\' OR e.code LIKE ? ESCAPE '\\' OR e.location LIKE ? ESCAPE '\\')",
      );
      params.push(...Array(4).fill(like(value)));
      continue;
    }
    const build = Object.hasOwn(FIELDS, field) ? FIELDS[field] : undefined;
    if (!build) throw fault(`unknown field "${field}"; allowed: ${SEARCH_FIELDS.join(', ')}`);
    const c = build(value);
    clauses.push(c.sql);
    params.push(...c.params);
  }
  return { where: clauses.length ? clauses.join(' AND ') : '1 = 1', params };
}
