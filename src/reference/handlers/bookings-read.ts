// Bookings with their attendees: six set-based queries per page (never one per row), each
// returning its rows as one JSON text (jsonRows), in one read transaction so that the page is one
// snapshot even while another process writes.
import type {
  AttendeeExtResponse,
  AttendeeResponse,
  BookingExtResponse,
  BookingResponse,
} from '@evgen/event-management/types';
import type { Db } from '../db/open.js';
import { bool, groupBy, idList, jsonRows, money } from './common.js';

type BookingRow = [
  id: number,
  reference: string,
  status: string,
  created: string,
  gross: number,
  net: number,
  tax: number,
  isTest: number,
];
type AttendeeRow = [
  id: number,
  bookingId: number,
  reference: string,
  status: string,
  created: string,
  attendeeType: string,
  attendeeTypeId: number,
  ticketType: string,
  ticketTypeId: number,
  title: string,
  forename: string,
  surname: string,
  organisation: string,
  occupation: string,
  paName: string,
  marketingOptOut: number,
  line1: string,
  line2: string,
  line3: string,
  town: string,
  county: string,
  postcode: string,
  country: string,
  countryCode: string,
  email: string,
  telephone: string,
  fax: string,
  mobile: string,
  website: string,
  isLead: number,
  attended: number,
];

const IDS = 'IN (SELECT value FROM json_each(?))';
const BOOKINGS = `SELECT json_group_array(json_array(b.id, b.reference, bs.name, b.created, b.gross_cents, b.net_cents, b.tax_cents, b.is_test) ORDER BY b.id)
  FROM booking b JOIN booking_status bs ON bs.id = b.status_id WHERE b.id ${IDS}`;
const ATTENDEES = `
  SELECT json_group_array(json_array(a.id, a.booking_id, a.reference, s.name, a.created, at.name, a.attendee_type_id, tt.name, a.ticket_type_id,
         c.title, c.forename, c.surname, c.organisation, c.occupation, c.pa_name, c.marketing_opt_out, c.line1, c.line2, c.line3, c.town, c.county, c.postcode,
         c.country, c.country_code, c.email, c.telephone, c.fax, c.mobile, c.website, a.is_lead, a.attended) ORDER BY a.id)
  FROM attendee a JOIN contact c ON c.id = a.contact_id JOIN attendee_status s ON s.id = a.status_id
  JOIN attendee_type at ON at.id = a.attendee_type_id JOIN ticket_type tt ON tt.id = a.ticket_type_id
  WHERE a.booking_id ${IDS}`;
// The attendees' lists, each in its own order within an attendee. Joined from the (distinct)
// booking ids rather than `attendee_id IN (SELECT ...)`, which builds two temporary indexes.
const OF_PAGE = 'json_each(?) j JOIN attendee a ON a.booking_id = j.value';
const DAYS = `SELECT json_group_array(json_array(d.attendee_id, d.day) ORDER BY d.attendee_id, d.day) FROM ${OF_PAGE} JOIN attendee_day d ON d.attendee_id = a.id`;
const CUSTOM = `SELECT json_group_array(json_array(v.attendee_id, v.custom_field_id, f.name, v.value) ORDER BY v.attendee_id, v.custom_field_id)
  FROM ${OF_PAGE} JOIN attendee_custom_value v ON v.attendee_id = a.id JOIN custom_field f ON f.id = v.custom_field_id`;
const SIGNUPS = `SELECT json_group_array(json_array(g.attendee_id, g.session_id, s.title, g.is_waiting_list) ORDER BY g.attendee_id, g.session_id)
  FROM ${OF_PAGE} JOIN session_signup g ON g.attendee_id = a.id JOIN bookable_session s ON s.id = g.session_id`;
const RESERVATIONS = `SELECT json_group_array(json_array(r.attendee_id, r.id, r.performance_id, r.quantity) ORDER BY r.attendee_id, r.id)
  FROM ${OF_PAGE} JOIN reservation r ON r.attendee_id = a.id`;

export interface BookingReader {
  /** The bookings with these ids (absent ones left out), in BookingId order. */
  read(ids: readonly number[], ext: false): BookingResponse[];
  read(ids: readonly number[], ext: true): BookingExtResponse[];
  /** A page of an event's bookings by BookingId, with its ids read in the same snapshot. */
  page(eventId: number, skip: number, size: number, ext: false): BookingResponse[];
  page(eventId: number, skip: number, size: number, ext: true): BookingExtResponse[];
}

/** A booking whose attendees are A: AttendeeResponse, or AttendeeExtResponse for GetExtBookings. */
type BookingOf<A> = Omit<BookingResponse, 'Attendees'> & { Attendees: A[] };
/** Completes an attendee: as it is, or with the fields AttendeeExtResponse adds. */
type Extend<A> = (base: AttendeeResponse, countryCode: string, attended: number) => A;

const plain: Extend<AttendeeResponse> = (base) => base;
const extended: Extend<AttendeeExtResponse> = (base, countryCode, attended) => {
  const more: Omit<AttendeeExtResponse, keyof AttendeeResponse> = {
    CountryCode: countryCode,
    AttendedStatus: bool(attended),
  };
  // Object.assign, not `{ ...base, ... }`: spreading this 33-property object cost 4 µs per attendee.
  return Object.assign(base, more);
};

export function bookingReader(db: Db): BookingReader {
  const byAttendee = <T extends [number, ...unknown[]]>(sql: string, ids: string) =>
    groupBy(jsonRows<T>(db, sql, ids), (r) => r[0]);
  const none: never[] = [];

  function read<A>(ids: readonly number[], extend: Extend<A>): BookingOf<A>[] {
    if (ids.length === 0) return [];
    const list = idList(ids);
    const bookings = jsonRows<BookingRow>(db, BOOKINGS, list);
    if (bookings.length === 0) return [];
    const attendees = groupBy(jsonRows<AttendeeRow>(db, ATTENDEES, list), (a) => a[1]);
    const days = byAttendee<[number, string]>(DAYS, list);
    const custom = byAttendee<[number, number, string, string]>(CUSTOM, list);
    const signups = byAttendee<[number, number, string, number]>(SIGNUPS, list);
    const reservations = byAttendee<[number, number, number, number]>(RESERVATIONS, list);
    const attendee = (a: AttendeeRow): A => {
      const [
        id,
        ,
        reference,
        status,
        created,
        attendeeType,
        attendeeTypeId,
        ticketType,
        ticketTypeId,
        title,
        forename,
        surname,
        organisation,
        occupation,
        paName,
        optOut,
        line1,
        line2,
        line3,
        town,
        county,
        postcode,
        country,
        countryCode,
        email,
        telephone,
        fax,
        mobile,
        website,
        isLead,
        attended,
      ] = a;
      const base: AttendeeResponse = {
        AttendeeId: id,
        AttendeeReference: reference,
        AttendeeStatus: status,
        DateCreated: created,
        AttendeeType: attendeeType,
        AttendeeTypeId: attendeeTypeId,
        TicketType: ticketType,
        TicketTypeId: ticketTypeId,
        Title: title,
        Forename: forename,
        Surname: surname,
        Organisation: organisation,
        Occupation: occupation,
        PAName: paName,
        MarketingOptOut: bool(optOut),
        Line1: line1,
        Line2: line2,
        Line3: line3,
        Town: town,
        County: county,
        Postcode: postcode,
        Country: country,
        Email: email,
        Telephone: telephone,
        Fax: fax,
        Mobile: mobile,
        Website: website,
        IsLeadAttendee: bool(isLead),
        Attendance: (days.get(id) ?? none).map((d) => d[1]),
        CustomFieldValues: (custom.get(id) ?? none).map(([, fieldId, name, value]) => ({
          CustomFieldId: fieldId,
          Name: name,
          Value: value,
        })),
        BookableSessionSignups: (signups.get(id) ?? none).map(([, sessionId, title, waiting]) => ({
          BookableSessionId: sessionId,
          Title: title,
          IsWaitingList: bool(waiting),
        })),
        Reservations: (reservations.get(id) ?? none).map(
          ([, reservationId, performanceId, quantity]) => ({
            ReservationId: reservationId,
            ShowPerformanceID: performanceId,
            Quantity: quantity,
          }),
        ),
      };
      return extend(base, countryCode, attended);
    };
    return bookings.map(([id, reference, status, created, gross, net, tax, isTest]) => ({
      BookingId: id,
      BookingReference: reference,
      BookingStatus: status,
      CreatedDate: created,
      GrossCost: money(gross),
      NetCost: money(net),
      Tax: money(tax),
      IsTest: bool(isTest),
      Attendees: (attendees.get(id) ?? none).map(attendee),
    }));
  }

  const pageIds = (eventId: number, skip: number, size: number) =>
    db
      .prepare('SELECT id FROM booking WHERE event_id = ? ORDER BY id LIMIT ? OFFSET ?')
      .pluck()
      .all(eventId, size, skip) as number[];
  const readTx = db.transaction((ids: readonly number[]) => read(ids, plain));
  const readExtTx = db.transaction((ids: readonly number[]) => read(ids, extended));
  const pageTx = db.transaction((e: number, skip: number, size: number) =>
    read(pageIds(e, skip, size), plain),
  );
  const pageExtTx = db.transaction((e: number, skip: number, size: number) =>
    read(pageIds(e, skip, size), extended),
  );
  function readBookings(ids: readonly number[], ext: false): BookingResponse[];
  function readBookings(ids: readonly number[], ext: true): BookingExtResponse[];
  function readBookings(ids: readonly number[], ext: boolean) {
    return ext ? readExtTx(ids) : readTx(ids);
  }
  function page(e: number, skip: number, size: number, ext: false): BookingResponse[];
  function page(e: number, skip: number, size: number, ext: true): BookingExtResponse[];
  function page(e: number, skip: number, size: number, ext: boolean) {
    return ext ? pageExtTx(e, skip, size) : pageTx(e, skip, size);
  }
  return { read: readBookings, page };
}
