// Contacts and their events in SQLite.
import {
  addressColumns,
  bool,
  columns,
  int,
  intOrNull,
  text,
  textOrNull,
} from '../store/columns.js';
import type * as R from '../store/records.js';
import type { StatementCache } from './statements.js';

const CONTACT = columns<R.ContactRow>({
  ...addressColumns(''),
  id: int('id'),
  code: text('code'),
  reference: text('reference'),
  profileString: text('profile_string'),
  twitter: text('twitter'),
  facebook: text('facebook'),
  linkedin: text('linkedin'),
  google: text('google'),
  shortBio: text('short_bio'),
  bio: text('bio'),
  dateOfBirth: text('date_of_birth'),
  regStatus: int('reg_status'),
});
const PROFILE_VALUE = columns<R.ProfileValueRow>({ id: int('value_id'), name: text('name') });

/** Call inside a read transaction. */
export function readContactByEmail(
  sql: StatementCache,
  email: string,
): R.ContactRecord | undefined {
  const contact = sql.row(
    CONTACT,
    `SELECT ${CONTACT.exprs} FROM contact WHERE email = ? COLLATE NOCASE`,
    email,
  );
  if (!contact) return undefined;
  return {
    contact,
    profileValues: sql.rows(
      PROFILE_VALUE,
      `SELECT ${PROFILE_VALUE.exprs} FROM contact_profile_value WHERE contact_id = ? ORDER BY value_id`,
      contact.id,
    ),
  };
}

const HISTORY = columns<R.ContactHistoryRow>({
  eventId: int('e.id'),
  attendeeId: int('a.id'),
  cpdValue: int('e.cpd_value'),
  title: text('e.title'),
  description: text('e.description'),
  mediumDescription: text('e.medium_description'),
  attendeeStatus: text('s.name'),
  attendeeStatusType: text('s.status_type'),
  bookingStatus: text('bs.name'),
  bookingStatusType: text('bs.status_type'),
  bookingReference: text('b.reference'),
  status: text('e.status'),
  helplineEmail: text('e.helpline_email'),
  helplineName: text('e.helpline_name'),
  helplineTelephone: text('e.helpline_telephone'),
  organisers: text('e.organisers'),
  externalUrl: text('e.external_url'),
  type: text('e.type'),
  series: text('e.series'),
  room: text('e.room'),
  company: text('cc.name'),
  subCompany: textOrNull('sc.name'),
  location: text('e.location'),
  endDate: text('e.end_date'),
  startDate: text('e.start_date'),
  signupEnd: text('e.signup_end'),
  signupStart: text('e.signup_start'),
  regDate: text('a.created'),
  lastUpdated: text('b.last_updated'),
  attended: bool('a.attended'),
  waitingList: bool('e.waiting_list'),
  thirdParty: bool('e.third_party'),
});

export const readContactHistory = (sql: StatementCache, contactId: number) =>
  sql.rows(
    HISTORY,
    `SELECT ${HISTORY.exprs}
     FROM attendee a JOIN booking b ON b.id = a.booking_id JOIN event e ON e.id = b.event_id JOIN attendee_status s ON s.id = a.status_id
     JOIN booking_status bs ON bs.id = b.status_id JOIN client_company cc ON cc.id = e.client_company_id
     LEFT JOIN client_company sc ON sc.id = e.sub_client_company_id
     WHERE a.contact_id = ? ORDER BY e.start_date, a.id`,
    contactId,
  );

const CONTACT_EVENT = columns<R.ContactEventRow>({
  eventId: int('e.id'),
  title: text('e.title'),
  startDate: text('e.start_date'),
  cpdValue: int('e.cpd_value'),
  bookingFormId: intOrNull(
    '(SELECT min(w.id) FROM event_website w WHERE w.event_id = e.id AND w.is_default = 1)',
  ),
});

/** Call inside a read transaction. */
export function readContactEvents(
  sql: StatementCache,
  contactId: number,
  includeArchived: boolean,
  testBookings: boolean,
): R.ContactEventRow[] | undefined {
  if (!sql.value('SELECT 1 FROM contact WHERE id = ?', contactId)) return undefined;
  return sql.rows(
    CONTACT_EVENT,
    `SELECT ${CONTACT_EVENT.exprs} FROM event e
     WHERE e.id IN (SELECT b.event_id FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.contact_id = ? AND b.is_test = ?)
       AND (? = 1 OR e.is_archived = 0)
     ORDER BY e.start_date, e.id`,
    contactId,
    testBookings ? 1 : 0,
    includeArchived ? 1 : 0,
  );
}
