// Event reads: details and search.
import { bool, columns, int, intOrNull, text, textOrNull, type ColumnsOf } from './columns.js';
import { list, row, rows, statement, values, type Program } from './program.js';
import type * as R from './records.js';
import type { SearchFilter } from './store.js';

const count = (statusType: string) =>
  `coalesce((SELECT n FROM event_attendee_count WHERE event_id = e.id AND status_type = '${statusType}'), 0)`;

/** The columns the event rows of details and search share. */
const EVENT_CORE: ColumnsOf<R.EventCoreRow> = {
  id: int('e.id'),
  title: text('e.title'),
  description: text('e.description'),
  mediumDescription: text('e.medium_description'),
  longDescription: text('e.long_description'),
  code: text('e.code'),
  helplineName: text('e.helpline_name'),
  helplineTelephone: text('e.helpline_telephone'),
  helplineEmail: text('e.helpline_email'),
  location: text('e.location'),
  type: text('e.type'),
  status: text('e.status'),
  series: text('e.series'),
  room: text('e.room'),
  organisers: text('e.organisers'),
  externalUrl: text('e.external_url'),
  analysis01: text('e.analysis01'),
  analysis02: text('e.analysis02'),
  startDate: text('e.start_date'),
  endDate: text('e.end_date'),
  signupStart: text('e.signup_start'),
  signupEnd: text('e.signup_end'),
  lastUpdated: text('e.last_updated'),
  capacity: int('e.capacity'),
  hasCapacityLimits: bool('e.has_capacity_limits'),
  cpdValue: int('e.cpd_value'),
  isArchived: bool('e.is_archived'),
  waitingList: bool('e.waiting_list'),
  thirdParty: bool('e.third_party'),
  subCompany: textOrNull('sc.name'),
};
const DETAILS = columns<R.EventDetailsRow>({
  ...EVENT_CORE,
  roadshowId: intOrNull('e.roadshow_id'),
  company: text('cc.name'),
  attending: int(count('Attending')),
  waiting: int(count('Waiting')),
  cancelled: int(count('Cancelled')),
  siteId: intOrNull('w.id'),
  siteName: textOrNull('w.name'),
  siteUrl: textOrNull('w.url'),
  bookingForm: textOrNull('w.booking_form'),
});
const COMPANIES =
  'event e JOIN client_company cc ON cc.id = e.client_company_id LEFT JOIN client_company sc ON sc.id = e.sub_client_company_id';
const DETAILS_SQL = statement(`SELECT ${DETAILS.exprs} FROM ${COMPANIES}
  LEFT JOIN event_website w ON w.id = (SELECT id FROM event_website WHERE event_id = e.id ORDER BY is_default DESC, id LIMIT 1)
  WHERE e.id = ?`);
const COLLABORATOR = columns<R.CollaboratorRow>({
  name: text('name'),
  type: text('type'),
  order: int('ord'),
  link: text('link'),
  linkItem: text('link_item'),
});
const PROFILE = columns<R.ProfileRow>({
  profileTypeId: int('profile_type_id'),
  profileType: text('profile_type'),
  valueName: text('value_name'),
});

const VENUES_SQL = statement(
  'SELECT venue_id FROM event_venue WHERE event_id = ? ORDER BY venue_id',
);
const COLLABORATORS_SQL = statement(
  `SELECT ${COLLABORATOR.exprs} FROM event_collaborator WHERE event_id = ? ORDER BY ord`,
);
const LINKS_SQL = statement('SELECT url FROM event_link WHERE event_id = ? ORDER BY ord');
const PROFILES_SQL = statement(
  `SELECT ${PROFILE.exprs} FROM event_profile WHERE event_id = ? ORDER BY id`,
);

/** Call inside a read transaction. */
export function* readEventDetails(
  eventId: number,
  profiles: boolean,
): Program<R.EventDetailsRecord | undefined> {
  const event = yield* row(DETAILS, DETAILS_SQL, eventId);
  if (!event) return undefined;
  return {
    event,
    venues: yield* values<number>(VENUES_SQL, eventId),
    collaborators: yield* rows(COLLABORATOR, COLLABORATORS_SQL, eventId),
    links: yield* values<string>(LINKS_SQL, eventId),
    profiles: profiles ? yield* rows(PROFILE, PROFILES_SQL, eventId) : [],
  };
}

const EVENT = columns<R.EventRow>({
  ...EVENT_CORE,
  bookingPrefix: text('e.booking_prefix'),
  invoicePrefix: text('e.invoice_prefix'),
  country: text('e.country'),
  created: text('e.created'),
  virtual: bool('e.virtual'),
  defaultTaxRateE5: int('e.default_tax_rate_e5'),
});
const WEBSITE = columns<R.WebsiteRow>({
  eventId: int('event_id'),
  id: int('id'),
  name: text('name'),
  url: text('url'),
  isDefault: bool('is_default'),
});

// One SQL text whatever the query (so one prepared statement, and no query can build an
// expression tree the database refuses): each kind of term is a list parameter, and an event
// matches when no term of any kind fails on it. Text matches ignore ASCII case, as SQLite's LIKE.
const SEARCH_SQL = statement((d) => {
  const contains = (column: string) => d.containsNocase(column, 't.value');
  const none = (type: 'int' | 'text', fails: string) =>
    `NOT EXISTS (SELECT 1 FROM ${d.each(type)} WHERE NOT (${fails}))`;
  const where = `${none('text', `${contains('e.title')} OR ${contains('e.description')} OR ${contains('e.code')} OR ${contains('e.location')}`)}
    AND ${none('text', 'e.code = t.value')} AND ${none('text', 'e.country = t.value')}
    AND ${none('text', 'e.type = t.value')} AND ${none('text', 'e.status = t.value')}
    AND ${none('text', 'e.series = t.value')} AND ${none('text', contains('e.location'))}
    AND ${none('text', 'e.start_date >= t.value')} AND ${none('text', 'e.start_date <= t.value')}
    AND ${none('int', 'e.is_archived = t.value')}`;
  const page = `SELECT e.* FROM event e WHERE ${where} ORDER BY e.start_date, e.id LIMIT ?`;
  const join = 'LEFT JOIN client_company sc ON sc.id = e.sub_client_company_id';
  return d.dialect === 'sqlite'
    ? `SELECT json_group_array(json_array(${EVENT.exprs}) ORDER BY e.start_date, e.id) FROM (${page}) e ${join}`
    : `SELECT ${EVENT.exprs} FROM (${page}) e ${join} ORDER BY e.start_date, e.id`;
}, true);
const WEBSITES_SQL = statement(
  (d) =>
    `SELECT ${WEBSITE.exprs} FROM event_website WHERE ${d.inIds('event_id')} ORDER BY event_id, id`,
);

/** `%`, `_` and `\` match themselves in a LIKE with ESCAPE '\'. */
export const likeLiteral = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Call inside a read transaction. */
export function* readSearch(f: SearchFilter, limit: number): Program<R.EventSearchResult> {
  const events = yield* rows(
    EVENT,
    SEARCH_SQL,
    list(f.words.map(likeLiteral)),
    list(f.code),
    list(f.country),
    list(f.type),
    list(f.status),
    list(f.series),
    list(f.location.map(likeLiteral)),
    list(f.from),
    list(f.to),
    list(f.archived.map((a) => (a ? 1 : 0))),
    limit,
  );
  const websites = yield* rows(WEBSITE, WEBSITES_SQL, list(events.map((e) => e.id)));
  return { events, websites };
}
