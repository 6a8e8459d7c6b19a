// Contacts and their events.
import { addressColumns, bool, columns, int, intOrNull, text, textOrNull } from './columns.js';
import { row, rows, statement, value, type Program } from './program.js';
import type * as R from './records.js';

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

// E-mail addresses match ignoring ASCII case (SQLite's NOCASE on both dialects).
const CONTACT_SQL = statement(
  (d) => `SELECT ${CONTACT.exprs} FROM contact WHERE ${d.equalsNocase('email')}`,
);
const PROFILE_VALUES_SQL = statement(
  `SELECT ${PROFILE_VALUE.exprs} FROM contact_profile_value WHERE contact_id = ? ORDER BY value_id`,
);

/** Call inside a read transaction. */
export function* readContactByEmail(email: string): Program<R.ContactRecord | undefined> {
  const contact = yield* row(CONTACT, CONTACT_SQL, email);
  if (!contact) return undefined;
  return { contact, profileValues: yield* rows(PROFILE_VALUE, PROFILE_VALUES_SQL, contact.id) };
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

const HISTORY_SQL = statement(`SELECT ${HISTORY.exprs}
     FROM attendee a JOIN booking b ON b.id = a.booking_id JOIN event e ON e.id = b.event_id JOIN attendee_status s ON s.id = a.status_id
     JOIN booking_status bs ON bs.id = b.status_id JOIN client_company cc ON cc.id = e.client_company_id
     LEFT JOIN client_company sc ON sc.id = e.sub_client_company_id
     WHERE a.contact_id = ? ORDER BY e.start_date, a.id`);
export const readContactHistory = (contactId: number) => rows(HISTORY, HISTORY_SQL, contactId);

const CONTACT_EVENT = columns<R.ContactEventRow>({
  eventId: int('e.id'),
  title: text('e.title'),
  startDate: text('e.start_date'),
  cpdValue: int('e.cpd_value'),
  bookingFormId: intOrNull(
    '(SELECT min(w.id) FROM event_website w WHERE w.event_id = e.id AND w.is_default = 1)',
  ),
});

const CONTACT_EXISTS = statement('SELECT 1 FROM contact WHERE id = ?');
const CONTACT_EVENTS_SQL = statement(`SELECT ${CONTACT_EVENT.exprs} FROM event e
     WHERE e.id IN (SELECT b.event_id FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.contact_id = ? AND b.is_test = ?)
       AND (? = 1 OR e.is_archived = 0)
     ORDER BY e.start_date, e.id`);

/** Call inside a read transaction. */
export function* readContactEvents(
  contactId: number,
  includeArchived: boolean,
  testBookings: boolean,
): Program<R.ContactEventRow[] | undefined> {
  if ((yield* value(CONTACT_EXISTS, contactId)) === undefined) return undefined;
  return yield* rows(
    CONTACT_EVENT,
    CONTACT_EVENTS_SQL,
    contactId,
    testBookings ? 1 : 0,
    includeArchived ? 1 : 0,
  );
}
