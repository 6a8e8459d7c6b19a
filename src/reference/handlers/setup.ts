// Per-event set-up: attendee and ticket types, bookable sessions, statuses, custom fields,
// accommodation, and ticket types across a roadshow. Counts come from live attendees.
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { TicketTypeResponse } from '@evgen/event-management/types';
import type { Db } from '../db/open.js';
import { bool, e5, groupBy, idList, notFound, requireEvent, type Row } from './common.js';

interface TicketRow {
  id: number;
  name: string;
  capacity: number | null;
  gross_price_e5: number;
  tax_rate_e5: number;
  days_valid: number | null;
  is_open: number;
  available_from: string;
  available_to: string;
  min_age: number;
  external_site: number;
  attendees: number;
}

/** Ticket types by id, with their attendee types, attendance types and days. */
export function ticketTypes(
  db: Db,
  ids: readonly number[],
  roadshowFields: boolean,
): Map<number, TicketTypeResponse> {
  const list = idList(ids);
  const rows = db
    .prepare(
      `SELECT t.*, coalesce((SELECT sum(n) FROM ticket_attendee_count WHERE ticket_type_id = t.id AND status_type <> 'Cancelled'), 0) AS attendees FROM ticket_type t WHERE t.id IN (SELECT value FROM json_each(?)) ORDER BY t.id`,
    )
    .all(list) as TicketRow[];
  const types = groupBy(
    db
      .prepare(
        'SELECT ticket_type_id, attendee_type_id FROM ticket_type_attendee_type WHERE ticket_type_id IN (SELECT value FROM json_each(?)) ORDER BY attendee_type_id',
      )
      .all(list) as { ticket_type_id: number; attendee_type_id: number }[],
    (r) => r.ticket_type_id,
  );
  const attendance = groupBy(
    db
      .prepare(
        'SELECT id, ticket_type_id, name FROM ticket_attendance_type WHERE ticket_type_id IN (SELECT value FROM json_each(?)) ORDER BY id',
      )
      .all(list) as { id: number; ticket_type_id: number; name: string }[],
    (r) => r.ticket_type_id,
  );
  const days = groupBy(
    db
      .prepare(
        'SELECT ticket_type_id, day FROM ticket_type_day WHERE ticket_type_id IN (SELECT value FROM json_each(?)) ORDER BY day',
      )
      .all(list) as { ticket_type_id: number; day: string }[],
    (r) => r.ticket_type_id,
  );
  // Typed, so a field the spec renames fails the type check here (a spread is not checked).
  const roadshowOnly = (t: TicketRow): Pick<TicketTypeResponse, 'MinAge' | 'ExternalSite'> => ({
    MinAge: t.min_age,
    ExternalSite: bool(t.external_site),
  });
  return new Map(
    rows.map((t) => [
      t.id,
      {
        TicketTypeId: t.id,
        Name: t.name,
        Capacity: t.capacity,
        GrossPrice: e5(t.gross_price_e5),
        TaxRate: e5(t.tax_rate_e5),
        AttendeeTypes: (types.get(t.id) ?? []).map((r) => r.attendee_type_id),
        AttendeeCount: t.attendees,
        NumberOfDaysValid: t.days_valid,
        IsOpen: bool(t.is_open),
        AvailabilityStartDate: t.available_from,
        AvailabilityEndDate: t.available_to,
        AttendanceType: (attendance.get(t.id) ?? []).map((a) => ({ Id: a.id, Name: a.name })),
        TicketTypeDays: (days.get(t.id) ?? []).map((d) => ({ Date: d.day })),
        ...(roadshowFields ? roadshowOnly(t) : {}),
      },
    ]),
  );
}

type SetupHandlers = Pick<
  ServiceHandlers,
  | 'getAttendeeTypes'
  | 'getBookableSessions'
  | 'getAttendeeStatuses'
  | 'getCustomFields'
  | 'getAccommodation'
  | 'getTicketTypesByRoadshowId'
>;

export function setupHandlers(db: Db): SetupHandlers {
  // One read transaction: one snapshot, and one WAL read lock for the eight statements.
  const attendeeTypes = db.transaction((eventId: number) => {
    requireEvent(db, eventId);
    const types = db
      .prepare('SELECT id, name FROM attendee_type WHERE event_id = ? ORDER BY id')
      .all(eventId) as { id: number; name: string }[];
    const tickets = ticketTypes(
      db,
      db.prepare('SELECT id FROM ticket_type WHERE event_id = ?').pluck().all(eventId) as number[],
      false,
    );
    const links = groupBy(
      db
        .prepare(
          'SELECT l.attendee_type_id, l.ticket_type_id FROM ticket_type_attendee_type l JOIN attendee_type a ON a.id = l.attendee_type_id WHERE a.event_id = ? ORDER BY l.attendee_type_id, l.ticket_type_id',
        )
        .raw()
        .all(eventId) as [number, number][],
      (l) => l[0],
    );
    return types.map((t) => ({
      AttendeeTypeId: t.id,
      Name: t.name,
      TicketTypes: (links.get(t.id) ?? []).map((l) => tickets.get(l[1])!).filter(Boolean),
    }));
  });
  const roadshowTickets = db.transaction((roadshowId: number) => {
    const roadshow = db
      .prepare('SELECT max_guests FROM roadshow WHERE id = ?')
      .pluck()
      .get(roadshowId) as number | undefined;
    if (roadshow === undefined) throw notFound(`roadshow ${roadshowId}`);
    const events = db
      .prepare(
        'SELECT id, title, start_date, end_date FROM event WHERE roadshow_id = ? ORDER BY start_date, id',
      )
      .all(roadshowId) as { id: number; title: string; start_date: string; end_date: string }[];
    return events.map((e) => {
      const ids = db
        .prepare('SELECT id FROM ticket_type WHERE event_id = ? ORDER BY id')
        .pluck()
        .all(e.id) as number[];
      const tickets = ticketTypes(db, ids, true);
      return {
        EventId: e.id,
        Title: e.title,
        StartDate: e.start_date,
        EndDate: e.end_date,
        MaxAllowableGuestsOnRoadshow: roadshow,
        TicketTypes: ids.map((id) => tickets.get(id)!),
      };
    });
  });
  return {
    getAttendeeTypes: ({ eventId }) => attendeeTypes(eventId),
    getBookableSessions({ eventId }) {
      requireEvent(db, eventId);
      const rows = db
        .prepare(
          `SELECT s.*, (SELECT count(*) FROM session_signup g WHERE g.session_id = s.id AND g.is_waiting_list = 0) AS signups, (SELECT count(*) FROM session_signup g WHERE g.session_id = s.id AND g.is_waiting_list = 1) AS waiting FROM bookable_session s WHERE s.event_id = ? ORDER BY s.id`,
        )
        .all(eventId) as Row[];
      const combos = groupBy(
        db
          .prepare(
            `SELECT st.session_id, st.attendee_type_id, st.ticket_type_id, at.name AS at_name, tt.name AS tt_name FROM session_ticket_type st JOIN attendee_type at ON at.id = st.attendee_type_id JOIN ticket_type tt ON tt.id = st.ticket_type_id JOIN bookable_session s ON s.id = st.session_id WHERE s.event_id = ? ORDER BY st.ticket_type_id`,
          )
          .all(eventId) as {
          session_id: number;
          attendee_type_id: number;
          ticket_type_id: number;
          at_name: string;
          tt_name: string;
        }[],
        (r) => r.session_id,
      );
      return rows.map((s) => ({
        BookableSessionId: s.id,
        Title: s.title,
        Code: s.code,
        AllowGuests: bool(s.allow_guests),
        Capacity: s.capacity,
        StartDateTime: s.start_at,
        EndDateTime: s.end_at,
        TaxRate: e5(s.tax_rate_e5),
        GrossPrice: e5(s.gross_price_e5),
        WaitingListCapacity: s.waiting_list_capacity ?? null,
        HasWaitingList: bool(s.has_waiting_list),
        MaximumGuests: s.maximum_guests ?? null,
        SignupCount: s.signups,
        WaitingListSignupCount: s.waiting,
        VenueName: s.venue_name,
        VenueRoomName: s.venue_room,
        AttendeeTicketTypes: (combos.get(s.id) ?? []).map((c) => ({
          AttendeeTypeId: c.attendee_type_id,
          TicketTypeId: c.ticket_type_id,
          AttendeeType: c.at_name,
          TicketType: c.tt_name,
        })),
      }));
    },
    getAttendeeStatuses({ eventId }) {
      requireEvent(db, eventId);
      const rows = db
        .prepare(
          'SELECT id, name, is_attending, is_default, status_type, event_id, linked_booking_status_id FROM attendee_status WHERE event_id = ? ORDER BY id',
        )
        .all(eventId) as {
        id: number;
        name: string;
        is_attending: number;
        is_default: number;
        status_type: string;
        event_id: number;
        linked_booking_status_id: number;
      }[];
      return rows.map((r) => ({
        AttendeeStatusId: r.id,
        Name: r.name,
        IsAttending: bool(r.is_attending),
        IsDefault: bool(r.is_default),
        StatusType: r.status_type,
        EventId: r.event_id,
        LinkedBookingStatusId: r.linked_booking_status_id,
      }));
    },
    getCustomFields({ eventId }) {
      requireEvent(db, eventId);
      const fields = db
        .prepare('SELECT id, name, type FROM custom_field WHERE event_id = ? ORDER BY id')
        .all(eventId) as { id: number; name: string; type: string }[];
      const options = db
        .prepare('SELECT value FROM custom_field_option WHERE field_id = ? ORDER BY ord')
        .pluck();
      return fields.map((f) => ({
        CustomFieldId: f.id,
        Name: f.name,
        Type: f.type,
        Values: options.all(f.id) as string[],
      }));
    },
    getAccommodation({ eventId }) {
      requireEvent(db, eventId);
      return {}; // gap accommodation-content: the result is empty by decision
    },
    getTicketTypesByRoadshowId: ({ roadshowId }) => roadshowTickets(roadshowId),
  };
}
