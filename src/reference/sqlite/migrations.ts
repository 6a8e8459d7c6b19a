// Versioned schema. Money is stored as integer minor units (cents for 2-place amounts, 1e-5 units
// for 5-place prices and rates) so no decimal is ever rounded; dateTimes are local text
// yyyy-MM-ddTHH:mm:ss. Append new migrations; never edit an applied one.
import { ATTENDEE_COUNTS } from './attendee-counts.js';
import { fixBookingCosts } from './fix-costs.js';
import type { Db } from './open.js';

/**
 * The replay record's table: PostgreSQL's record; on SQLite, where earlier versions kept it (its
 * live entries move to the replay log at start-up, sqlite/replay-store.ts).
 */
export const REPLAY_TABLE = `
  CREATE TABLE replay_record (digest BLOB PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX replay_record_expiry ON replay_record (expires_at);
`;

/** SQL, or a function for a step SQL cannot say exactly (it runs in the migration's transaction). */
export type Migration = string | ((db: Db) => void);

export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE client_company (id INTEGER PRIMARY KEY, name TEXT NOT NULL, parent_id INTEGER REFERENCES client_company(id), is_universal INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE roadshow (id INTEGER PRIMARY KEY, name TEXT NOT NULL, max_guests INTEGER NOT NULL);
  CREATE TABLE event (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL, description TEXT NOT NULL, medium_description TEXT NOT NULL, long_description TEXT NOT NULL,
    code TEXT NOT NULL, booking_prefix TEXT NOT NULL, invoice_prefix TEXT NOT NULL, helpline_name TEXT NOT NULL, helpline_telephone TEXT NOT NULL,
    helpline_email TEXT NOT NULL, location TEXT NOT NULL, country TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL, series TEXT NOT NULL,
    room TEXT NOT NULL, organisers TEXT NOT NULL, external_url TEXT NOT NULL, analysis01 TEXT NOT NULL, analysis02 TEXT NOT NULL,
    start_date TEXT NOT NULL, end_date TEXT NOT NULL, signup_start TEXT NOT NULL, signup_end TEXT NOT NULL, last_updated TEXT NOT NULL, created TEXT NOT NULL,
    capacity INTEGER NOT NULL, has_capacity_limits INTEGER NOT NULL, cpd_value INTEGER NOT NULL, is_archived INTEGER NOT NULL, waiting_list INTEGER NOT NULL,
    third_party INTEGER NOT NULL, virtual INTEGER NOT NULL, default_tax_rate_e5 INTEGER NOT NULL,
    roadshow_id INTEGER REFERENCES roadshow(id), client_company_id INTEGER NOT NULL REFERENCES client_company(id), sub_client_company_id INTEGER REFERENCES client_company(id)
  );
  CREATE TABLE event_website (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), name TEXT NOT NULL, url TEXT NOT NULL, is_default INTEGER NOT NULL, booking_form TEXT NOT NULL);
  CREATE TABLE event_collaborator (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), name TEXT NOT NULL, type TEXT NOT NULL, ord INTEGER NOT NULL, link TEXT NOT NULL, link_item TEXT NOT NULL);
  CREATE TABLE event_profile (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), profile_type_id INTEGER NOT NULL, profile_type TEXT NOT NULL, value_name TEXT NOT NULL);
  CREATE TABLE event_venue (event_id INTEGER NOT NULL REFERENCES event(id), venue_id INTEGER NOT NULL, PRIMARY KEY (event_id, venue_id));
  CREATE TABLE event_link (event_id INTEGER NOT NULL REFERENCES event(id), ord INTEGER NOT NULL, url TEXT NOT NULL, PRIMARY KEY (event_id, ord));
  CREATE TABLE attendee_type (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), name TEXT NOT NULL);
  CREATE TABLE ticket_type (
    id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), name TEXT NOT NULL, capacity INTEGER, gross_price_e5 INTEGER NOT NULL,
    tax_rate_e5 INTEGER NOT NULL, days_valid INTEGER, is_open INTEGER NOT NULL, available_from TEXT NOT NULL, available_to TEXT NOT NULL,
    min_age INTEGER NOT NULL, external_site INTEGER NOT NULL
  );
  CREATE TABLE ticket_type_attendee_type (ticket_type_id INTEGER NOT NULL REFERENCES ticket_type(id), attendee_type_id INTEGER NOT NULL REFERENCES attendee_type(id), PRIMARY KEY (ticket_type_id, attendee_type_id));
  CREATE TABLE ticket_attendance_type (id INTEGER PRIMARY KEY, ticket_type_id INTEGER NOT NULL REFERENCES ticket_type(id), name TEXT NOT NULL);
  CREATE TABLE ticket_type_day (ticket_type_id INTEGER NOT NULL REFERENCES ticket_type(id), day TEXT NOT NULL, PRIMARY KEY (ticket_type_id, day));
  CREATE TABLE bookable_session (
    id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), title TEXT NOT NULL, code TEXT NOT NULL, allow_guests INTEGER NOT NULL,
    capacity INTEGER NOT NULL, start_at TEXT NOT NULL, end_at TEXT NOT NULL, tax_rate_e5 INTEGER NOT NULL, gross_price_e5 INTEGER NOT NULL,
    waiting_list_capacity INTEGER, has_waiting_list INTEGER NOT NULL, maximum_guests INTEGER, venue_name TEXT NOT NULL, venue_room TEXT NOT NULL
  );
  CREATE TABLE session_ticket_type (session_id INTEGER NOT NULL REFERENCES bookable_session(id), attendee_type_id INTEGER NOT NULL REFERENCES attendee_type(id), ticket_type_id INTEGER NOT NULL REFERENCES ticket_type(id), PRIMARY KEY (session_id, ticket_type_id));
  CREATE TABLE show (id INTEGER PRIMARY KEY, name TEXT NOT NULL, long_name TEXT NOT NULL, venue TEXT NOT NULL, notes TEXT NOT NULL, rtf TEXT NOT NULL, status INTEGER NOT NULL, pnum INTEGER NOT NULL, start_date TEXT NOT NULL, end_date TEXT NOT NULL);
  CREATE TABLE show_performance (
    id INTEGER PRIMARY KEY, show_id INTEGER NOT NULL REFERENCES show(id), name TEXT NOT NULL, type TEXT NOT NULL, venue TEXT NOT NULL, notes TEXT NOT NULL,
    day TEXT NOT NULL, start_at TEXT NOT NULL, end_at TEXT NOT NULL, stock INTEGER NOT NULL, hold INTEGER NOT NULL, sold INTEGER NOT NULL,
    price_cents INTEGER NOT NULL, unit_cost_cents INTEGER NOT NULL, sku TEXT
  );
  CREATE TABLE custom_field (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), name TEXT NOT NULL, type TEXT NOT NULL);
  CREATE TABLE custom_field_option (field_id INTEGER NOT NULL REFERENCES custom_field(id), ord INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (field_id, ord));
  CREATE TABLE booking_status (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, status_type TEXT NOT NULL);
  CREATE TABLE attendee_status (
    id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), name TEXT NOT NULL, is_attending INTEGER NOT NULL, is_default INTEGER NOT NULL,
    status_type TEXT NOT NULL, linked_booking_status_id INTEGER NOT NULL REFERENCES booking_status(id), is_default_cancelled INTEGER NOT NULL
  );
  CREATE TABLE speaker (id INTEGER PRIMARY KEY, forename TEXT NOT NULL, surname TEXT NOT NULL, occupation TEXT NOT NULL, organisation TEXT NOT NULL, telephone TEXT NOT NULL, email TEXT NOT NULL, website TEXT NOT NULL);
  CREATE TABLE speaker_series (speaker_id INTEGER NOT NULL REFERENCES speaker(id), series TEXT NOT NULL, PRIMARY KEY (speaker_id, series));
  CREATE TABLE contact (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL, forename TEXT NOT NULL, surname TEXT NOT NULL, organisation TEXT NOT NULL, occupation TEXT NOT NULL,
    pa_name TEXT NOT NULL, line1 TEXT NOT NULL, line2 TEXT NOT NULL, line3 TEXT NOT NULL, town TEXT NOT NULL, county TEXT NOT NULL, postcode TEXT NOT NULL,
    country TEXT NOT NULL, country_code TEXT NOT NULL, email TEXT NOT NULL UNIQUE, telephone TEXT NOT NULL, fax TEXT NOT NULL, mobile TEXT NOT NULL,
    website TEXT NOT NULL, code TEXT NOT NULL, reference TEXT NOT NULL, password_hash TEXT NOT NULL, password_salt TEXT NOT NULL, profile_string TEXT NOT NULL,
    twitter TEXT NOT NULL, facebook TEXT NOT NULL, linkedin TEXT NOT NULL, google TEXT NOT NULL, short_bio TEXT NOT NULL, bio TEXT NOT NULL,
    marketing_opt_out INTEGER NOT NULL, date_of_birth TEXT NOT NULL, reg_status INTEGER NOT NULL
  );
  CREATE TABLE contact_profile_value (contact_id INTEGER NOT NULL REFERENCES contact(id), value_id INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (contact_id, value_id));
  CREATE TABLE booking (
    id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), reference TEXT NOT NULL UNIQUE, status_id INTEGER NOT NULL REFERENCES booking_status(id),
    contact_id INTEGER NOT NULL REFERENCES contact(id), created TEXT NOT NULL, gross_cents INTEGER NOT NULL, net_cents INTEGER NOT NULL, tax_cents INTEGER NOT NULL,
    is_test INTEGER NOT NULL, secure_key TEXT NOT NULL, last_updated TEXT NOT NULL
  );
  CREATE INDEX booking_event ON booking(event_id, id);
  CREATE TABLE attendee (
    id INTEGER PRIMARY KEY, booking_id INTEGER NOT NULL REFERENCES booking(id), reference TEXT NOT NULL UNIQUE, contact_id INTEGER NOT NULL REFERENCES contact(id),
    status_id INTEGER NOT NULL REFERENCES attendee_status(id), created TEXT NOT NULL, attendee_type_id INTEGER NOT NULL REFERENCES attendee_type(id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_type(id), is_lead INTEGER NOT NULL, attended INTEGER NOT NULL
  );
  CREATE INDEX attendee_booking ON attendee(booking_id);
  CREATE INDEX attendee_contact ON attendee(contact_id);
  CREATE INDEX attendee_ticket ON attendee(ticket_type_id);
  CREATE TABLE attendee_day (attendee_id INTEGER NOT NULL REFERENCES attendee(id), day TEXT NOT NULL, PRIMARY KEY (attendee_id, day));
  CREATE TABLE attendee_custom_value (attendee_id INTEGER NOT NULL REFERENCES attendee(id), custom_field_id INTEGER NOT NULL REFERENCES custom_field(id), value TEXT NOT NULL, PRIMARY KEY (attendee_id, custom_field_id));
  CREATE TABLE session_signup (attendee_id INTEGER NOT NULL REFERENCES attendee(id), session_id INTEGER NOT NULL REFERENCES bookable_session(id), is_waiting_list INTEGER NOT NULL, PRIMARY KEY (attendee_id, session_id));
  CREATE TABLE reservation (id INTEGER PRIMARY KEY, attendee_id INTEGER NOT NULL REFERENCES attendee(id), performance_id INTEGER NOT NULL REFERENCES show_performance(id), quantity INTEGER NOT NULL);
  CREATE INDEX reservation_attendee ON reservation(attendee_id);
  CREATE TABLE submission (
    id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(id), booking_id INTEGER NOT NULL REFERENCES booking(id), lead_attendee_id INTEGER NOT NULL REFERENCES attendee(id),
    client_user_id INTEGER NOT NULL, title TEXT NOT NULL, theme TEXT NOT NULL, voters_one INTEGER NOT NULL, voters_two INTEGER NOT NULL, score_one INTEGER NOT NULL,
    score_two INTEGER NOT NULL, comments INTEGER NOT NULL, is_approved INTEGER NOT NULL, reviewed_one INTEGER NOT NULL, reviewed_two INTEGER NOT NULL
  );
  CREATE TABLE submission_author (submission_id INTEGER NOT NULL REFERENCES submission(id), attendee_id INTEGER NOT NULL REFERENCES attendee(id), full_name TEXT NOT NULL, PRIMARY KEY (submission_id, attendee_id));
  CREATE TABLE contact_token (id INTEGER PRIMARY KEY, contact_id INTEGER NOT NULL REFERENCES contact(id), token_type TEXT NOT NULL, value TEXT NOT NULL UNIQUE, single_use INTEGER NOT NULL, expires_at TEXT, used_at TEXT, created TEXT NOT NULL);
  CREATE TABLE api_key (id INTEGER PRIMARY KEY, name TEXT NOT NULL, api_key TEXT NOT NULL UNIQUE, secret TEXT NOT NULL, created TEXT NOT NULL, revoked_at TEXT);
  CREATE TABLE outbox (id INTEGER PRIMARY KEY, created TEXT NOT NULL, kind TEXT NOT NULL, recipient TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, booking_id INTEGER NOT NULL REFERENCES booking(id));
  `,
  ATTENDEE_COUNTS,
  // Per-event set-up read on every details and set-up request: searched by event, not scanned.
  `
  CREATE INDEX event_website_event ON event_website(event_id, is_default DESC);
  CREATE INDEX event_collaborator_event ON event_collaborator(event_id, ord);
  CREATE INDEX event_profile_event ON event_profile(event_id);
  CREATE INDEX attendee_type_event ON attendee_type(event_id);
  CREATE INDEX attendee_status_event ON attendee_status(event_id);
  CREATE INDEX ticket_type_event ON ticket_type(event_id);
  CREATE INDEX ticket_type_attendee_type_attendee ON ticket_type_attendee_type(attendee_type_id, ticket_type_id);
  CREATE INDEX ticket_attendance_type_ticket ON ticket_attendance_type(ticket_type_id);
  CREATE INDEX custom_field_event ON custom_field(event_id);
  CREATE INDEX bookable_session_event ON bookable_session(event_id);
  `,
  // Replay protection shared by every worker, process and restart (since moved: replay-log/).
  REPLAY_TABLE,
  // Bookings whose net and tax the pre-computeCosts handler stored wrongly.
  fixBookingCosts,
];
