// Bookings with their attendees, read in a few set-based queries per page (never one per row).
import type { AttendeeExtResponse, BookingExtResponse, BookingResponse } from '../../../generated/src/types.js';
import type { Db } from '../db/open.js';
import { bool, groupBy, idList, money } from './common.js';

interface BookingRow { id: number; reference: string; status: string; created: string; gross_cents: number; net_cents: number; tax_cents: number; is_test: number }
interface AttendeeRow {
  id: number; booking_id: number; reference: string; status: string; created: string; attendee_type: string; attendee_type_id: number; ticket_type: string; ticket_type_id: number;
  title: string; forename: string; surname: string; organisation: string; occupation: string; pa_name: string; marketing_opt_out: number; line1: string; line2: string; line3: string;
  town: string; county: string; postcode: string; country: string; country_code: string; email: string; telephone: string; fax: string; mobile: string; website: string; is_lead: number; attended: number;
}

const ATTENDEES = `
  SELECT a.id, a.booking_id, a.reference, s.name AS status, a.created, at.name AS attendee_type, a.attendee_type_id, tt.name AS ticket_type, a.ticket_type_id,
         c.title, c.forename, c.surname, c.organisation, c.occupation, c.pa_name, c.marketing_opt_out, c.line1, c.line2, c.line3, c.town, c.county, c.postcode,
         c.country, c.country_code, c.email, c.telephone, c.fax, c.mobile, c.website, a.is_lead, a.attended
  FROM attendee a JOIN contact c ON c.id = a.contact_id JOIN attendee_status s ON s.id = a.status_id
  JOIN attendee_type at ON at.id = a.attendee_type_id JOIN ticket_type tt ON tt.id = a.ticket_type_id
  WHERE a.booking_id IN (SELECT value FROM json_each(?)) ORDER BY a.id`;

/** Bookings selected by `where` (a fixed SQL fragment over booking b) with bound `params`, in BookingId order. */
export function readBookings(db: Db, where: string, params: unknown[], ext: false): BookingResponse[];
export function readBookings(db: Db, where: string, params: unknown[], ext: true): BookingExtResponse[];
export function readBookings(db: Db, where: string, params: unknown[], ext: boolean): BookingResponse[] {
  const rows = db.prepare(`SELECT b.id, b.reference, bs.name AS status, b.created, b.gross_cents, b.net_cents, b.tax_cents, b.is_test FROM booking b JOIN booking_status bs ON bs.id = b.status_id WHERE ${where}`).all(...params) as BookingRow[];
  if (rows.length === 0) return [];
  const attendees = db.prepare(ATTENDEES).all(idList(rows.map((r) => r.id))) as AttendeeRow[];
  const ids = idList(attendees.map((a) => a.id));
  const days = groupBy(db.prepare('SELECT attendee_id, day FROM attendee_day WHERE attendee_id IN (SELECT value FROM json_each(?)) ORDER BY day').all(ids) as { attendee_id: number; day: string }[], (r) => r.attendee_id);
  const custom = groupBy(db.prepare('SELECT v.attendee_id, v.custom_field_id, f.name, v.value FROM attendee_custom_value v JOIN custom_field f ON f.id = v.custom_field_id WHERE v.attendee_id IN (SELECT value FROM json_each(?)) ORDER BY v.custom_field_id').all(ids) as { attendee_id: number; custom_field_id: number; name: string; value: string }[], (r) => r.attendee_id);
  const signups = groupBy(db.prepare('SELECT g.attendee_id, g.session_id, s.title, g.is_waiting_list FROM session_signup g JOIN bookable_session s ON s.id = g.session_id WHERE g.attendee_id IN (SELECT value FROM json_each(?)) ORDER BY g.session_id').all(ids) as { attendee_id: number; session_id: number; title: string; is_waiting_list: number }[], (r) => r.attendee_id);
  const reservations = groupBy(db.prepare('SELECT id, attendee_id, performance_id, quantity FROM reservation WHERE attendee_id IN (SELECT value FROM json_each(?)) ORDER BY id').all(ids) as { id: number; attendee_id: number; performance_id: number; quantity: number }[], (r) => r.attendee_id);
  const byBooking = groupBy(attendees, (a) => a.booking_id);
  return rows.map((b) => ({
    BookingId: b.id,
    BookingReference: b.reference,
    BookingStatus: b.status,
    CreatedDate: b.created,
    GrossCost: money(b.gross_cents),
    NetCost: money(b.net_cents),
    Tax: money(b.tax_cents),
    IsTest: bool(b.is_test),
    Attendees: (byBooking.get(b.id) ?? []).map((a) => {
      const base = {
        AttendeeId: a.id, AttendeeReference: a.reference, AttendeeStatus: a.status, DateCreated: a.created, AttendeeType: a.attendee_type, AttendeeTypeId: a.attendee_type_id,
        TicketType: a.ticket_type, TicketTypeId: a.ticket_type_id, Title: a.title, Forename: a.forename, Surname: a.surname, Organisation: a.organisation, Occupation: a.occupation,
        PAName: a.pa_name, MarketingOptOut: bool(a.marketing_opt_out), Line1: a.line1, Line2: a.line2, Line3: a.line3, Town: a.town, County: a.county, Postcode: a.postcode,
        Country: a.country, Email: a.email, Telephone: a.telephone, Fax: a.fax, Mobile: a.mobile, Website: a.website, IsLeadAttendee: bool(a.is_lead),
        Attendance: (days.get(a.id) ?? []).map((d) => d.day),
        CustomFieldValues: (custom.get(a.id) ?? []).map((c) => ({ CustomFieldId: c.custom_field_id, Name: c.name, Value: c.value })),
        BookableSessionSignups: (signups.get(a.id) ?? []).map((s) => ({ BookableSessionId: s.session_id, Title: s.title, IsWaitingList: bool(s.is_waiting_list) })),
        Reservations: (reservations.get(a.id) ?? []).map((r) => ({ ReservationId: r.id, ShowPerformanceID: r.performance_id, Quantity: r.quantity })),
      };
      return ext ? ({ ...base, CountryCode: a.country_code, AttendedStatus: bool(a.attended) } satisfies AttendeeExtResponse) : base;
    }),
  }));
}
