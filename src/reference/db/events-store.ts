// Event reads in SQLite: details, search, calendar, submissions, shows, speakers, companies.
import {
  bool,
  columns,
  int,
  intOrNull,
  text,
  textOrNull,
  type ColumnsOf,
} from '../store/columns.js';
import type * as R from '../store/records.js';
import type { SearchFilter } from '../store/store.js';
import { IN_IDS, idList, type StatementCache } from './statements.js';

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
const DETAILS_SQL = `SELECT ${DETAILS.exprs} FROM ${COMPANIES}
  LEFT JOIN event_website w ON w.id = (SELECT id FROM event_website WHERE event_id = e.id ORDER BY is_default DESC, id LIMIT 1)
  WHERE e.id = ?`;
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

/** Call inside a read transaction. */
export function readEventDetails(
  sql: StatementCache,
  eventId: number,
  profiles: boolean,
): R.EventDetailsRecord | undefined {
  const event = sql.row(DETAILS, DETAILS_SQL, eventId);
  if (!event) return undefined;
  return {
    event,
    venues: sql.values(
      'SELECT venue_id FROM event_venue WHERE event_id = ? ORDER BY venue_id',
      eventId,
    ),
    collaborators: sql.rows(
      COLLABORATOR,
      `SELECT ${COLLABORATOR.exprs} FROM event_collaborator WHERE event_id = ? ORDER BY ord`,
      eventId,
    ),
    links: sql.values('SELECT url FROM event_link WHERE event_id = ? ORDER BY ord', eventId),
    profiles: profiles
      ? sql.rows(
          PROFILE,
          `SELECT ${PROFILE.exprs} FROM event_profile WHERE event_id = ? ORDER BY id`,
          eventId,
        )
      : [],
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
// expression tree SQLite refuses): each kind of term is a JSON array parameter, and an event
// matches when no term of any kind fails on it.
const LIKE = (column: string) => `${column} LIKE '%' || t.value || '%' ESCAPE '\\'`;
const none = (param: string, fails: string) =>
  `NOT EXISTS (SELECT 1 FROM json_each(${param}) t WHERE NOT (${fails}))`;
const SEARCH_SQL = `SELECT json_group_array(json_array(${EVENT.exprs}) ORDER BY e.start_date, e.id) FROM (
  SELECT e.* FROM event e WHERE
    ${none('?', `${LIKE('e.title')} OR ${LIKE('e.description')} OR ${LIKE('e.code')} OR ${LIKE('e.location')}`)}
    AND ${none('?', 'e.code = t.value')} AND ${none('?', 'e.country = t.value')}
    AND ${none('?', 'e.type = t.value')} AND ${none('?', 'e.status = t.value')}
    AND ${none('?', 'e.series = t.value')} AND ${none('?', LIKE('e.location'))}
    AND ${none('?', 'e.start_date >= t.value')} AND ${none('?', 'e.start_date <= t.value')}
    AND ${none('?', 'e.is_archived = t.value')}
  ORDER BY e.start_date, e.id LIMIT ?
) e LEFT JOIN client_company sc ON sc.id = e.sub_client_company_id`;

/** `%`, `_` and `\` match themselves in a LIKE with ESCAPE '\'. */
export const likeLiteral = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Call inside a read transaction. */
export function readSearch(
  sql: StatementCache,
  f: SearchFilter,
  limit: number,
): R.EventSearchResult {
  const json = (values: readonly unknown[]) => JSON.stringify(values);
  const events = sql.jsonRows(
    EVENT,
    SEARCH_SQL,
    json(f.words.map(likeLiteral)),
    json(f.code),
    json(f.country),
    json(f.type),
    json(f.status),
    json(f.series),
    json(f.location.map(likeLiteral)),
    json(f.from),
    json(f.to),
    json(f.archived.map((a) => (a ? 1 : 0))),
    limit,
  );
  const websites = sql.rows(
    WEBSITE,
    `SELECT ${WEBSITE.exprs} FROM event_website WHERE event_id ${IN_IDS} ORDER BY event_id, id`,
    idList(events.map((e) => e.id)),
  );
  return { events, websites };
}
