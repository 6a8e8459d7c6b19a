// Per-event set-up in SQLite: attendee and ticket types, sessions, statuses, custom fields, and
// ticket types across a roadshow.
import { bool, columns, int, intOrNull, text } from '../store/columns.js';
import type * as R from '../store/records.js';
import { IN_IDS, idList, type StatementCache } from './statements.js';

const TICKET = columns<R.TicketTypeRow>({
  id: int('t.id'),
  eventId: int('t.event_id'),
  name: text('t.name'),
  capacity: intOrNull('t.capacity'),
  grossPriceE5: int('t.gross_price_e5'),
  taxRateE5: int('t.tax_rate_e5'),
  daysValid: intOrNull('t.days_valid'),
  isOpen: bool('t.is_open'),
  availableFrom: text('t.available_from'),
  availableTo: text('t.available_to'),
  minAge: int('t.min_age'),
  externalSite: bool('t.external_site'),
  attendees: int(
    "coalesce((SELECT sum(n) FROM ticket_attendee_count WHERE ticket_type_id = t.id AND status_type <> 'Cancelled'), 0)",
  ),
});
const LINK = columns<R.TicketLinkRow>({
  ticketTypeId: int('ticket_type_id'),
  attendeeTypeId: int('attendee_type_id'),
});
const ATTENDANCE = columns<R.AttendanceTypeRow>({
  ticketTypeId: int('ticket_type_id'),
  id: int('id'),
  name: text('name'),
});
const DAY = columns<R.TicketDayRow>({ ticketTypeId: int('ticket_type_id'), day: text('day') });

/** The ticket types of these events, with their lists. Call inside a read transaction. */
function ticketTypesOfEvents(sql: StatementCache, eventIds: readonly number[]): R.TicketTypeSet {
  const events = idList(eventIds);
  const of = `ticket_type_id IN (SELECT t.id FROM ticket_type t WHERE t.event_id ${IN_IDS})`;
  return {
    tickets: sql.rows(
      TICKET,
      `SELECT ${TICKET.exprs} FROM ticket_type t WHERE t.event_id ${IN_IDS} ORDER BY t.id`,
      events,
    ),
    links: sql.rows(
      LINK,
      `SELECT ${LINK.exprs} FROM ticket_type_attendee_type WHERE ${of} ORDER BY ticket_type_id, attendee_type_id`,
      events,
    ),
    attendance: sql.rows(
      ATTENDANCE,
      `SELECT ${ATTENDANCE.exprs} FROM ticket_attendance_type WHERE ${of} ORDER BY id`,
      events,
    ),
    days: sql.rows(
      DAY,
      `SELECT ${DAY.exprs} FROM ticket_type_day WHERE ${of} ORDER BY ticket_type_id, day`,
      events,
    ),
  };
}

const EVENT_EXISTS = 'SELECT 1 FROM event WHERE id = ?';
export const readEventExists = (sql: StatementCache, eventId: number) =>
  sql.value(EVENT_EXISTS, eventId) !== undefined;

const ATTENDEE_TYPE = columns<R.AttendeeTypeRow>({ id: int('id'), name: text('name') });

/** Call inside a read transaction. */
export function readAttendeeTypes(
  sql: StatementCache,
  eventId: number,
): R.AttendeeTypes | undefined {
  if (!readEventExists(sql, eventId)) return undefined;
  return {
    types: sql.rows(
      ATTENDEE_TYPE,
      `SELECT ${ATTENDEE_TYPE.exprs} FROM attendee_type WHERE event_id = ? ORDER BY id`,
      eventId,
    ),
    tickets: ticketTypesOfEvents(sql, [eventId]),
  };
}

const ROADSHOW_EVENT = columns<R.RoadshowEventRow>({
  id: int('id'),
  title: text('title'),
  startDate: text('start_date'),
  endDate: text('end_date'),
});

/** Call inside a read transaction. */
export function readRoadshowTickets(
  sql: StatementCache,
  roadshowId: number,
): R.RoadshowTickets | undefined {
  const maxGuests = sql.value<number>('SELECT max_guests FROM roadshow WHERE id = ?', roadshowId);
  if (maxGuests === undefined) return undefined;
  const events = sql.rows(
    ROADSHOW_EVENT,
    `SELECT ${ROADSHOW_EVENT.exprs} FROM event WHERE roadshow_id = ? ORDER BY start_date, id`,
    roadshowId,
  );
  return {
    maxGuests,
    events,
    tickets: ticketTypesOfEvents(
      sql,
      events.map((e) => e.id),
    ),
  };
}

const SESSION = columns<R.SessionRow>({
  id: int('s.id'),
  title: text('s.title'),
  code: text('s.code'),
  allowGuests: bool('s.allow_guests'),
  capacity: int('s.capacity'),
  startAt: text('s.start_at'),
  endAt: text('s.end_at'),
  taxRateE5: int('s.tax_rate_e5'),
  grossPriceE5: int('s.gross_price_e5'),
  waitingListCapacity: intOrNull('s.waiting_list_capacity'),
  hasWaitingList: bool('s.has_waiting_list'),
  maximumGuests: intOrNull('s.maximum_guests'),
  venueName: text('s.venue_name'),
  venueRoom: text('s.venue_room'),
  signups: int(
    '(SELECT count(*) FROM session_signup g WHERE g.session_id = s.id AND g.is_waiting_list = 0)',
  ),
  waiting: int(
    '(SELECT count(*) FROM session_signup g WHERE g.session_id = s.id AND g.is_waiting_list = 1)',
  ),
});
const SESSION_TICKET = columns<R.SessionTicketRow>({
  sessionId: int('st.session_id'),
  attendeeTypeId: int('st.attendee_type_id'),
  ticketTypeId: int('st.ticket_type_id'),
  attendeeType: text('at.name'),
  ticketType: text('tt.name'),
});

/** Call inside a read transaction. */
export function readBookableSessions(
  sql: StatementCache,
  eventId: number,
): R.BookableSessions | undefined {
  if (!readEventExists(sql, eventId)) return undefined;
  return {
    sessions: sql.rows(
      SESSION,
      `SELECT ${SESSION.exprs} FROM bookable_session s WHERE s.event_id = ? ORDER BY s.id`,
      eventId,
    ),
    tickets: sql.rows(
      SESSION_TICKET,
      `SELECT ${SESSION_TICKET.exprs} FROM session_ticket_type st JOIN attendee_type at ON at.id = st.attendee_type_id JOIN ticket_type tt ON tt.id = st.ticket_type_id JOIN bookable_session s ON s.id = st.session_id WHERE s.event_id = ? ORDER BY st.session_id, st.ticket_type_id`,
      eventId,
    ),
  };
}

const STATUS = columns<R.AttendeeStatusRow>({
  id: int('id'),
  name: text('name'),
  isAttending: bool('is_attending'),
  isDefault: bool('is_default'),
  statusType: text('status_type'),
  eventId: int('event_id'),
  linkedBookingStatusId: int('linked_booking_status_id'),
});

/** Call inside a read transaction. */
export function readAttendeeStatuses(
  sql: StatementCache,
  eventId: number,
): R.AttendeeStatusRow[] | undefined {
  if (!readEventExists(sql, eventId)) return undefined;
  return sql.rows(
    STATUS,
    `SELECT ${STATUS.exprs} FROM attendee_status WHERE event_id = ? ORDER BY id`,
    eventId,
  );
}

const FIELD = columns<R.CustomFieldRow>({ id: int('id'), name: text('name'), type: text('type') });
const OPTION = columns<R.CustomFieldOptionRow>({
  fieldId: int('o.field_id'),
  value: text('o.value'),
});

/** Call inside a read transaction. */
export function readCustomFields(sql: StatementCache, eventId: number): R.CustomFields | undefined {
  if (!readEventExists(sql, eventId)) return undefined;
  return {
    fields: sql.rows(
      FIELD,
      `SELECT ${FIELD.exprs} FROM custom_field WHERE event_id = ? ORDER BY id`,
      eventId,
    ),
    options: sql.rows(
      OPTION,
      `SELECT ${OPTION.exprs} FROM custom_field f JOIN custom_field_option o ON o.field_id = f.id WHERE f.event_id = ? ORDER BY o.field_id, o.ord`,
      eventId,
    ),
  };
}
