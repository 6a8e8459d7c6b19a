// Contacts and their events. Decisions (gap include-archived, contact-password): GetEventsByContactId
// lists events where the contact has an attendee; includeArchived false leaves archived events out;
// isTestBookingForm true lists events reached through test bookings only, false through real ones.
// Password is always nil: only salted hashes are stored.
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { ContactResponse, ContactResponse2 } from '@evgen/event-management/types';
import type { Db } from '../db/open.js';
import { verifyToken } from '../tokens.js';
import { bool, notFound, type Row } from './common.js';

type ContactHandlers = Pick<
  ServiceHandlers,
  | 'getContact'
  | 'getContact2'
  | 'getContactEventHistory3'
  | 'getEventsByContactId'
  | 'verifyTokenForContact'
>;

export function contactHandlers(db: Db): ContactHandlers {
  const byEmail = (email: string): Row => {
    const c = db.prepare('SELECT * FROM contact WHERE email = ? COLLATE NOCASE').get(email) as
      | Row
      | undefined;
    if (!c) throw notFound(`contact ${JSON.stringify(email)}`);
    return c;
  };
  // Typed, so a field the spec renames or adds fails the type check here (a spread is not checked).
  const address = (c: Row): Omit<ContactResponse, 'ContactId' | 'MarketingOptOut'> => ({
    Title: c.title,
    Forename: c.forename,
    Surname: c.surname,
    Organisation: c.organisation,
    Occupation: c.occupation,
    PAName: c.pa_name,
    Line1: c.line1,
    Line2: c.line2,
    Line3: c.line3,
    Town: c.town,
    County: c.county,
    Postcode: c.postcode,
    Country: c.country,
    Email: c.email,
    Telephone: c.telephone,
    Fax: c.fax,
    Mobile: c.mobile,
    Website: c.website,
  });
  return {
    getContact({ email }) {
      const c = byEmail(email);
      return { ...address(c), ContactId: c.id, MarketingOptOut: bool(c.marketing_opt_out) };
    },
    getContact2({ emailAddress }) {
      const c = byEmail(emailAddress);
      const values = db
        .prepare(
          'SELECT value_id, name FROM contact_profile_value WHERE contact_id = ? ORDER BY value_id',
        )
        .all(c.id) as { value_id: number; name: string }[];
      const contact: ContactResponse2 = {
        ContactId: c.id,
        Reg_Status: c.reg_status,
        ...address(c),
        Code: c.code,
        Reference: c.reference,
        Password: null,
        ProfileString: c.profile_string,
        TwitterURL: c.twitter,
        FacebookURL: c.facebook,
        LinkedInURL: c.linkedin,
        GoogleURL: c.google,
        ShortBio: c.short_bio,
        Bio: c.bio,
        MarketingOptOut: bool(c.marketing_opt_out),
        DateOfBirth: c.date_of_birth,
        ProfileValues: values.map((v) => ({ Id: v.value_id, Name: v.name })),
      };
      return contact;
    },
    getContactEventHistory3({ email }) {
      const c = byEmail(email);
      const rows = db
        .prepare(
          `SELECT e.*, a.id AS attendee_id, a.attended, a.created AS reg_date, s.name AS a_status, s.status_type AS a_type, bs.name AS b_status, bs.status_type AS b_type,
          b.reference, b.last_updated AS b_updated, cc.name AS company, sc.name AS sub_company
        FROM attendee a JOIN booking b ON b.id = a.booking_id JOIN event e ON e.id = b.event_id JOIN attendee_status s ON s.id = a.status_id JOIN booking_status bs ON bs.id = b.status_id
        JOIN client_company cc ON cc.id = e.client_company_id LEFT JOIN client_company sc ON sc.id = e.sub_client_company_id WHERE a.contact_id = ? ORDER BY e.start_date, a.id`,
        )
        .all(c.id) as Row[];
      return rows.map((r) => ({
        EventId: r.id,
        AttendeeId: r.attendee_id,
        CPDValue: r.cpd_value,
        EventTitle: r.title,
        Description: r.description,
        MediumDescription: r.medium_description,
        AttendeeStatus: r.a_status,
        AttendeeStatusType: r.a_type,
        BookingStatus: r.b_status,
        BookingStatusType: r.b_type,
        BookingReference: r.reference,
        Status: r.status,
        HelplineEmail: r.helpline_email,
        HelplineName: r.helpline_name,
        HelplineTelephone: r.helpline_telephone,
        Organisers: r.organisers,
        ExternalURL: r.external_url,
        Code_Type: r.type,
        Code_Series: r.series,
        Code_Room: r.room,
        ClientCompanyName: r.company,
        SubClientCompanyName: r.sub_company ?? '',
        Location: r.location,
        EndDate: r.end_date,
        StartDate: r.start_date,
        SignupEndDate: r.signup_end,
        SignupStartDate: r.signup_start,
        RegDate: r.reg_date,
        LastUpdatedDate: r.b_updated,
        Attended: bool(r.attended),
        EventWaitingListEnabled: bool(r.waiting_list),
        ThirdPartyEvent: bool(r.third_party),
      }));
    },
    getEventsByContactId({ contactId, includeArchived, isTestBookingForm }) {
      if (!db.prepare('SELECT 1 FROM contact WHERE id = ?').get(contactId))
        throw notFound(`contact ${contactId}`);
      const rows = db
        .prepare(
          `SELECT e.id, e.title, e.start_date, e.cpd_value, (SELECT min(w.id) FROM event_website w WHERE w.event_id = e.id AND w.is_default = 1) AS form
        FROM event e WHERE e.id IN (SELECT b.event_id FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.contact_id = ? AND b.is_test = ?) AND (? = 1 OR e.is_archived = 0)
        ORDER BY e.start_date, e.id`,
        )
        .all(contactId, isTestBookingForm ? 1 : 0, includeArchived ? 1 : 0) as Row[];
      return rows.map((e) => ({
        ContactId: contactId,
        EventId: e.id,
        EventName: e.title,
        StartDateAndTime: e.start_date,
        CPDValue: e.cpd_value,
        DefaultBookingFormId: e.form ?? 0,
        BookingFormUsedId: e.form ?? 0,
      }));
    },
    verifyTokenForContact: ({ tokenType, tokenValue }) => verifyToken(db, tokenType, tokenValue),
  };
}
