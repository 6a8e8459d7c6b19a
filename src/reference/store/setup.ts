// Per-event set-up: attendee and ticket types, sessions, statuses, custom fields, and ticket types
// across a roadshow.
import { bool, columns, int, intOrNull, text } from './columns.js';
import { list, rows, statement, value, type Program } from './program.js';
import type * as R from './records.js';

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

const OF_EVENTS = (d: { inIds(column: string): string }) =>
  `ticket_type_id IN (SELECT t.id FROM ticket_type t WHERE ${d.inIds('t.event_id')})`;
const TICKETS_SQL = statement(
  (d) => `SELECT ${TICKET.exprs} FROM ticket_type t WHERE ${d.inIds('t.event_id')} ORDER BY t.id`,
);
const LINKS_SQL = statement(
  (d) =>
    `SELECT ${LINK.exprs} FROM ticket_type_attendee_type WHERE ${OF_EVENTS(d)} ORDER BY ticket_type_id, attendee_type_id`,
);
const ATTENDANCE_SQL = statement(
  (d) => `SELECT ${ATTENDANCE.exprs} FROM ticket_attendance_type WHERE ${OF_EVENTS(d)} ORDER BY id`,
);
const DAYS_SQL = statement(
  (d) =>
    `SELECT ${DAY.exprs} FROM ticket_type_day WHERE ${OF_EVENTS(d)} ORDER BY ticket_type_id, day`,
);

/** The ticket types of these events, with their lists. Call inside a read transaction. */
function* ticketTypesOfEvents(eventIds: readonly number[]): Program<R.TicketTypeSet> {
  const events = list(eventIds);
  return {
    tickets: yield* rows(TICKET, TICKETS_SQL, events),
    links: yield* rows(LINK, LINKS_SQL, events),
    attendance: yield* rows(ATTENDANCE, ATTENDANCE_SQL, events),
    days: yield* rows(DAY, DAYS_SQL, events),
  };
}

const EVENT_EXISTS = statement('SELECT 1 FROM event WHERE id = ?');
export function* readEventExists(eventId: number): Program<boolean> {
  return (yield* value(EVENT_EXISTS, eventId)) !== undefined;
}

const ATTENDEE_TYPE = columns<R.AttendeeTypeRow>({ id: int('id'), name: text('name') });
const ATTENDEE_TYPES_SQL = statement(
  `SELECT ${ATTENDEE_TYPE.exprs} FROM attendee_type WHERE event_id = ? ORDER BY id`,
);

/** Call inside a read transaction. */
export function* readAttendeeTypes(eventId: number): Program<R.AttendeeTypes | undefined> {
  if (!(yield* readEventExists(eventId))) return undefined;
  return {
    types: yield* rows(ATTENDEE_TYPE, ATTENDEE_TYPES_SQL, eventId),
    tickets: yield* ticketTypesOfEvents([eventId]),
  };
}

const ROADSHOW_EVENT = columns<R.RoadshowEventRow>({
  id: int('id'),
  title: text('title'),
  startDate: text('start_date'),
  endDate: text('end_date'),
});

const MAX_GUESTS_SQL = statement('SELECT max_guests FROM roadshow WHERE id = ?');
const ROADSHOW_EVENTS_SQL = statement(
  `SELECT ${ROADSHOW_EVENT.exprs} FROM event WHERE roadshow_id = ? ORDER BY start_date, id`,
);

/** Call inside a read transaction. */
export function* readRoadshowTickets(roadshowId: number): Program<R.RoadshowTickets | undefined> {
  const maxGuests = yield* value<number>(MAX_GUESTS_SQL, roadshowId);
  if (maxGuests === undefined) return undefined;
  const events = yield* rows(ROADSHOW_EVENT, ROADSHOW_EVENTS_SQL, roadshowId);
  return { maxGuests, events, tickets: yield* ticketTypesOfEvents(events.map((e) => e.id)) };
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

const SESSIONS_SQL = statement(
  `SELECT ${SESSION.exprs} FROM bookable_session s WHERE s.event_id = ? ORDER BY s.id`,
);
const SESSION_TICKETS_SQL = statement(
  `SELECT ${SESSION_TICKET.exprs} FROM session_ticket_type st JOIN attendee_type at ON at.id = st.attendee_type_id JOIN ticket_type tt ON tt.id = st.ticket_type_id JOIN bookable_session s ON s.id = st.session_id WHERE s.event_id = ? ORDER BY st.session_id, st.ticket_type_id`,
);

/** Call inside a read transaction. */
export function* readBookableSessions(eventId: number): Program<R.BookableSessions | undefined> {
  if (!(yield* readEventExists(eventId))) return undefined;
  return {
    sessions: yield* rows(SESSION, SESSIONS_SQL, eventId),
    tickets: yield* rows(SESSION_TICKET, SESSION_TICKETS_SQL, eventId),
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

const STATUSES_SQL = statement(
  `SELECT ${STATUS.exprs} FROM attendee_status WHERE event_id = ? ORDER BY id`,
);

/** Call inside a read transaction. */
export function* readAttendeeStatuses(eventId: number): Program<R.AttendeeStatusRow[] | undefined> {
  if (!(yield* readEventExists(eventId))) return undefined;
  return yield* rows(STATUS, STATUSES_SQL, eventId);
}

const FIELD = columns<R.CustomFieldRow>({ id: int('id'), name: text('name'), type: text('type') });
const OPTION = columns<R.CustomFieldOptionRow>({
  fieldId: int('o.field_id'),
  value: text('o.value'),
});

const FIELDS_SQL = statement(
  `SELECT ${FIELD.exprs} FROM custom_field WHERE event_id = ? ORDER BY id`,
);
const OPTIONS_SQL = statement(
  `SELECT ${OPTION.exprs} FROM custom_field f JOIN custom_field_option o ON o.field_id = f.id WHERE f.event_id = ? ORDER BY o.field_id, o.ord`,
);

/** Call inside a read transaction. */
export function* readCustomFields(eventId: number): Program<R.CustomFields | undefined> {
  if (!(yield* readEventExists(eventId))) return undefined;
  return {
    fields: yield* rows(FIELD, FIELDS_SQL, eventId),
    options: yield* rows(OPTION, OPTIONS_SQL, eventId),
  };
}
