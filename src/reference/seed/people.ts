// Contacts (with salted password hashes) and the bookings that bring them to events.
import { randomBytes, scryptSync } from 'node:crypto';
import type { Db } from '../sqlite/open.js';
import { BatchInsert, columnsOf, withIndexesAside } from './batch.js';
import { BASE, type SeededEvent } from './catalogue.js';
import type { Rng } from './rng.js';
import { localDateTime } from './rng.js';
import type { AttendeeTally } from './tally.js';
import { FORENAMES, OCCUPATIONS, ORGANISATIONS, SURNAMES, TITLES, TOWNS } from './words.js';

/** scrypt with a per-contact salt; the password itself is never stored or sent. */
export function hashPassword(
  password: string,
  salt = randomBytes(16).toString('hex'),
): { hash: string; salt: string } {
  return { hash: scryptSync(password, salt, 32).toString('hex'), salt };
}

export const DEMO_CONTACT_EMAIL = 'demo@example.com';

/** What seedContacts draws from the generator for each contact, whatever the contact. */
export const CONTACT_DRAWS = 7;

export function seedContacts(db: Db, rng: Rng, count: number): void {
  // One fixed hash for seeded contacts keeps seeding fast and deterministic; real passwords get their own salt.
  const demo = hashPassword('demo-password', 'demo-salt-0001');
  const blank = ['line3', 'fax', 'twitter', 'facebook', 'linkedin', 'google', 'short_bio', 'bio'];
  const contact = new BatchInsert(db, 'contact', columnsOf(db, 'contact'), [], {
    ...Object.fromEntries(blank.map((c) => [c, ''])),
    password_hash: demo.hash,
    password_salt: demo.salt,
    reg_status: 1,
  });
  const profile = new BatchInsert(
    db,
    'contact_profile_value',
    ['contact_id', 'value_id', 'name'],
    [contact],
  );
  for (let id = 1; id <= count; id++) {
    const [forename, surname] = [rng.pick(FORENAMES), rng.pick(SURNAMES)];
    const [town, county, postcode, country, country_code] = rng.pick(TOWNS);
    contact.runRow({
      id,
      title: rng.pick(TITLES),
      forename,
      surname,
      organisation: rng.pick(ORGANISATIONS),
      occupation: rng.pick(OCCUPATIONS),
      pa_name: id % 5 === 0 ? 'Pat Assistant' : '',
      line1: `${rng.int(1, 200)} High Street`,
      line2: id % 2 ? 'Floor 2' : '',
      town,
      county,
      postcode,
      country,
      country_code,
      email:
        id === 1
          ? DEMO_CONTACT_EMAIL
          : `${forename}.${surname}.${id}@example.com`.toLowerCase().replace(/[^a-z0-9.@']/g, ''),
      telephone: `+44 7700 9${String(id).padStart(5, '0').slice(-5)}`,
      mobile: id % 3 ? '+44 7700 900000' : '',
      website: id % 4 ? '' : 'https://example.com',
      code: `C${id}`,
      reference: `REF-${id}`,
      profile_string: `profile:${id % 7}`,
      marketing_opt_out: id % 9 === 0 ? 1 : 0,
      date_of_birth: localDateTime({ y: 1960 + (id % 40), m: 1 + (id % 12), d: 1 + (id % 28) }, 0),
    });
    profile.run(id, 1 + (id % 3), ['Member', 'Student', 'Fellow'][id % 3]!);
  }
  profile.flush();
}

interface Counters {
  perTicket: Map<number, number>;
}

/** Bookings spread over the events; lead attendee is the booking contact. */
export function seedBookings(
  db: Db,
  rng: Rng,
  events: SeededEvent[],
  contacts: number,
  total: number,
  tally: AttendeeTally,
  onProgress?: (done: number, total: number) => void,
): void {
  const batch = (table: string, columns: string, ...parents: BatchInsert[]) =>
    new BatchInsert(db, table, columns.split(', '), parents);
  const booking = batch(
    'booking',
    'id, event_id, reference, status_id, contact_id, created, gross_cents, net_cents, tax_cents, is_test, secure_key, last_updated',
  );
  const attendee = batch(
    'attendee',
    'id, booking_id, reference, contact_id, status_id, created, attendee_type_id, ticket_type_id, is_lead, attended',
    booking,
  );
  const day = batch('attendee_day', 'attendee_id, day', attendee);
  const custom = batch('attendee_custom_value', 'attendee_id, custom_field_id, value', attendee);
  const signup = batch('session_signup', 'attendee_id, session_id, is_waiting_list', attendee);
  const reservation = batch('reservation', 'attendee_id, performance_id, quantity', attendee);
  const tables = [booking, attendee, day, custom, signup, reservation];
  const performances = db
    .prepare('SELECT id FROM show_performance ORDER BY id')
    .pluck()
    .all() as number[];
  const c: Counters = { perTicket: new Map() };
  const live = events.filter((e) => !e.archived);
  let attendeeId = 0;
  const one = (id: number) => {
    const event = id % 10 === 0 ? rng.pick(events) : rng.pick(live);
    const cancelled = rng.chance(0.05);
    const isTest = rng.chance(0.04);
    const lead = rng.int(1, contacts);
    const people = [lead, ...Array.from({ length: rng.int(0, 2) }, () => rng.int(1, contacts))];
    const created = localDateTime(BASE, -rng.int(1, 120), rng.int(8, 20), rng.int(0, 59));
    let gross = 0;
    let net = 0;
    const chosen = people.map(() => {
      let t = rng.pick(event.tickets);
      if (t.capacity !== null && (c.perTicket.get(t.id) ?? 0) >= t.capacity) t = event.tickets[0]!;
      c.perTicket.set(t.id, (c.perTicket.get(t.id) ?? 0) + 1);
      gross += t.grossCents;
      net += t.netCents;
      return t;
    });
    booking.run(
      id,
      event.id,
      `${event.prefix}-${String(id).padStart(6, '0')}`,
      cancelled ? 3 : rng.chance(0.1) ? 2 : 1,
      lead,
      created,
      gross,
      net,
      gross - net,
      isTest ? 1 : 0,
      rng.next().toString(36).slice(2, 12),
      created,
    );
    people.forEach((contact, i) => {
      const t = chosen[i]!;
      const aid = ++attendeeId;
      const status = cancelled
        ? event.statuses.cancelled
        : event.archived && rng.chance(0.7)
          ? event.statuses.attended
          : event.statuses.attending;
      attendee.run(
        aid,
        id,
        `${event.prefix}-A${String(aid).padStart(7, '0')}`,
        contact,
        status,
        created,
        t.attendeeTypeId,
        t.id,
        i === 0 ? 1 : 0,
        status === event.statuses.attended ? 1 : 0,
      );
      tally.add(event.id, t.id, status);
      for (const d of event.days) if (rng.chance(0.8)) day.run(aid, d);
      custom.run(aid, event.customFieldIds[0]!, rng.pick(['None', 'Vegetarian', 'Vegan', 'Halal']));
      if (rng.chance(0.2))
        custom.run(aid, event.customFieldIds[1]!, 'Step-free access & <quiet> room');
      if (rng.chance(0.3)) signup.run(aid, rng.pick(event.sessionIds), rng.chance(0.1) ? 1 : 0);
      if (rng.chance(0.1)) reservation.run(aid, rng.pick(performances), rng.int(1, 4));
    });
  };
  const perTransaction = 2_000;
  withIndexesAside(
    db,
    tables.map((t) => t.table),
    () => {
      for (let start = 1; start <= total; start += perTransaction) {
        for (let id = start; id < Math.min(start + perTransaction, total + 1); id++) one(id);
        for (const t of tables) t.flush();
        onProgress?.(Math.min(start + perTransaction - 1, total), total);
      }
    },
  );
}

/** A few abstract submissions on every third event. */
export function seedSubmissions(db: Db, rng: Rng, events: SeededEvent[]): void {
  const sub = db.prepare(
    'INSERT INTO submission (event_id, booking_id, lead_attendee_id, client_user_id, title, theme, voters_one, voters_two, score_one, score_two, comments, is_approved, reviewed_one, reviewed_two) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const author = db.prepare(
    'INSERT INTO submission_author (submission_id, attendee_id, full_name) VALUES (?, ?, ?)',
  );
  const leads = db.prepare(
    `SELECT a.id, a.booking_id, c.forename || ' ' || c.surname AS name FROM attendee a JOIN booking b ON b.id = a.booking_id JOIN contact c ON c.id = a.contact_id WHERE b.event_id = ? AND a.is_lead = 1 ORDER BY a.id LIMIT 4`,
  );
  for (const e of events.filter((x) => x.id % 3 === 1)) {
    for (const lead of leads.all(e.id) as { id: number; booking_id: number; name: string }[]) {
      const id = Number(
        sub.run(
          e.id,
          lead.booking_id,
          lead.id,
          1 + (lead.id % 2),
          `Findings on ${rng.pick(['sleep', 'solar', 'triage', 'teaching'])} #${lead.id}`,
          rng.pick(['Innovation', 'Evidence', 'Practice']),
          rng.int(0, 9),
          rng.int(0, 9),
          rng.int(0, 50),
          rng.int(0, 50),
          rng.int(0, 5),
          rng.chance(0.5) ? 1 : 0,
          rng.chance(0.5) ? 1 : 0,
          0,
        ).lastInsertRowid,
      );
      author.run(id, lead.id, lead.name);
    }
  }
}
