// Calendar, submissions, shows, speakers and companies in SQLite.
import { bool, columns, int, text, textOrNull } from '../store/columns.js';
import type * as R from '../store/records.js';
import type { StatementCache } from './statements.js';

const CALENDAR_EVENT = columns<R.CalendarEventRow>({
  id: int('e.id'),
  title: text('e.title'),
  description: text('e.description'),
  startDate: text('e.start_date'),
  location: text('e.location'),
  country: text('e.country'),
  type: text('e.type'),
  status: text('e.status'),
  helplineEmail: text('e.helpline_email'),
  attending: int(
    "coalesce((SELECT n FROM event_attendee_count WHERE event_id = e.id AND status_type = 'Attending'), 0)",
  ),
});
const SETTING = 'SELECT value FROM setting WHERE key = ?';

export function readCalendarEvents(
  sql: StatementCache,
  from: string,
  to: string,
  includeArchived: boolean,
): R.CalendarEvents {
  return {
    systemOwnerEmail: sql.value<string>(SETTING, 'system_owner_email') ?? '',
    systemOwnerName: sql.value<string>(SETTING, 'system_owner_name') ?? '',
    events: sql.rows(
      CALENDAR_EVENT,
      `SELECT ${CALENDAR_EVENT.exprs} FROM event e WHERE e.start_date >= ? AND e.start_date <= ? AND (? = 1 OR e.is_archived = 0) ORDER BY e.start_date, e.id`,
      from,
      to,
      includeArchived ? 1 : 0,
    ),
  };
}

const HELPLINE = columns<R.HelplineRow>({
  title: text('title'),
  description: text('description'),
  helplineName: text('helpline_name'),
  helplineEmail: text('helpline_email'),
  helplineTelephone: text('helpline_telephone'),
});
const CALENDAR_ATTENDEE = columns<R.CalendarAttendeeRow>({
  id: int('a.id'),
  title: text('c.title'),
  forename: text('c.forename'),
  surname: text('c.surname'),
  occupation: text('c.occupation'),
  organisation: text('c.organisation'),
  status: text('s.name'),
  email: text('c.email'),
});

/** Call inside a read transaction. */
export function readCalendarAttendees(
  sql: StatementCache,
  eventId: number,
): R.CalendarAttendees | undefined {
  const event = sql.row(HELPLINE, `SELECT ${HELPLINE.exprs} FROM event WHERE id = ?`, eventId);
  if (!event) return undefined;
  const attendees = sql.jsonRows(
    CALENDAR_ATTENDEE,
    `SELECT json_group_array(json_array(${CALENDAR_ATTENDEE.exprs}) ORDER BY a.id)
     FROM booking b JOIN attendee a ON a.booking_id = b.id JOIN contact c ON c.id = a.contact_id JOIN attendee_status s ON s.id = a.status_id
     WHERE b.event_id = ?`,
    eventId,
  );
  return { event, attendees };
}

const SUBMISSION = columns<R.SubmissionRow>({
  id: int('s.id'),
  eventId: int('s.event_id'),
  eventTitle: text('e.title'),
  bookingId: int('s.booking_id'),
  leadAttendeeId: int('s.lead_attendee_id'),
  leadName: text("c.forename || ' ' || c.surname"),
  clientUserId: int('s.client_user_id'),
  votersOne: int('s.voters_one'),
  votersTwo: int('s.voters_two'),
  scoreOne: int('s.score_one'),
  scoreTwo: int('s.score_two'),
  comments: int('s.comments'),
  isApproved: bool('s.is_approved'),
  reviewedOne: bool('s.reviewed_one'),
  reviewedTwo: bool('s.reviewed_two'),
  title: text('s.title'),
  theme: text('s.theme'),
});
const AUTHOR = columns<R.AuthorRow>({
  submissionId: int('w.submission_id'),
  attendeeId: int('w.attendee_id'),
  fullName: text('w.full_name'),
});

/** Call inside a read transaction. */
export function readSubmissions(sql: StatementCache, eventId: number): R.Submissions | undefined {
  if (!sql.value('SELECT 1 FROM event WHERE id = ?', eventId)) return undefined;
  return {
    submissions: sql.rows(
      SUBMISSION,
      `SELECT ${SUBMISSION.exprs} FROM submission s JOIN event e ON e.id = s.event_id JOIN attendee a ON a.id = s.lead_attendee_id JOIN contact c ON c.id = a.contact_id WHERE s.event_id = ? ORDER BY s.id`,
      eventId,
    ),
    authors: sql.rows(
      AUTHOR,
      `SELECT ${AUTHOR.exprs} FROM submission s JOIN submission_author w ON w.submission_id = s.id WHERE s.event_id = ? ORDER BY w.submission_id, w.attendee_id`,
      eventId,
    ),
  };
}

const SHOW = columns<R.ShowRow>({
  id: int('id'),
  status: int('status'),
  pnum: int('pnum'),
  name: text('name'),
  longName: text('long_name'),
  venue: text('venue'),
  notes: text('notes'),
  rtf: text('rtf'),
  startDate: text('start_date'),
  endDate: text('end_date'),
});
const PERFORMANCE = columns<R.PerformanceRow>({
  id: int('p.id'),
  showId: int('p.show_id'),
  showName: text('s.name'),
  type: text('p.type'),
  venue: text('p.venue'),
  notes: text('p.notes'),
  name: text('p.name'),
  day: text('p.day'),
  startAt: text('p.start_at'),
  endAt: text('p.end_at'),
  stock: int('p.stock'),
  hold: int('p.hold'),
  sold: int('p.sold'),
  priceCents: int('p.price_cents'),
  unitCostCents: int('p.unit_cost_cents'),
  sku: textOrNull('p.sku'),
});

/** Call inside a read transaction. */
export function readShows(sql: StatementCache): R.Shows {
  return {
    shows: sql.rows(SHOW, `SELECT ${SHOW.exprs} FROM show ORDER BY id`),
    performances: sql.rows(
      PERFORMANCE,
      `SELECT ${PERFORMANCE.exprs} FROM show_performance p JOIN show s ON s.id = p.show_id ORDER BY p.show_id, p.id`,
    ),
  };
}

const SPEAKER = columns<R.SpeakerRow>({
  id: int('s.id'),
  forename: text('s.forename'),
  surname: text('s.surname'),
  occupation: text('s.occupation'),
  organisation: text('s.organisation'),
  telephone: text('s.telephone'),
  email: text('s.email'),
  website: text('s.website'),
});
export const readSpeakers = (sql: StatementCache, series: string) =>
  sql.rows(
    SPEAKER,
    `SELECT ${SPEAKER.exprs} FROM speaker s JOIN speaker_series ss ON ss.speaker_id = s.id WHERE ss.series = ? ORDER BY s.id`,
    series,
  );

const COMPANY = columns<R.SubClientCompanyRow>({
  id: int('c.id'),
  name: text('c.name'),
  parent: text('p.name'),
});
export const readSubClientCompanies = (sql: StatementCache) =>
  sql.rows(
    COMPANY,
    `SELECT ${COMPANY.exprs} FROM client_company c JOIN client_company p ON p.id = c.parent_id WHERE c.is_universal = 0 ORDER BY c.id`,
  );
