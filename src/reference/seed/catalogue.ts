// Demo catalogue: companies, statuses, events with their set-up, speakers, shows. Small tables,
// one row per thing; bookings come from bookings.ts.
import type { Db } from '../sqlite/open.js';
import { E5_PER_CENT, E5_PER_UNIT, computeCosts } from '../costs.js';
import type { Rng } from './rng.js';
import { localDateTime } from './rng.js';
import {
  EVENT_KINDS,
  ROOMS,
  SERIES,
  TOPICS,
  VENUES,
  FORENAMES,
  SURNAMES,
  ORGANISATIONS,
  OCCUPATIONS,
} from './words.js';

export const BASE = { y: 2026, m: 1, d: 5 };
/** The demo ticket types' tax rate: 20 % in 1e-5 units. */
export const TAX_RATE_E5 = 20_000;
export const BOOKING_STATUSES = [
  [1, 'Confirmed', 'Attending'],
  [2, 'Provisional', 'Pending'],
  [3, 'Cancelled', 'Cancelled'],
  [4, 'Waiting List', 'Waiting'],
] as const;

export interface SeededEvent {
  id: number;
  archived: boolean;
  /** ticket type id → attendee type id, capacity (null = unlimited), gross price in cents. */
  tickets: {
    id: number;
    attendeeTypeId: number;
    capacity: number | null;
    grossCents: number;
    netCents: number;
  }[];
  statuses: { attending: number; cancelled: number; waiting: number; attended: number };
  customFieldIds: number[];
  sessionIds: number[];
  prefix: string;
  days: string[];
}

export function seedCatalogue(db: Db, rng: Rng, events: number): SeededEvent[] {
  db.prepare('INSERT INTO setting (key, value) VALUES (?, ?), (?, ?)').run(
    'system_owner_email',
    'owner@events.example.com',
    'system_owner_name',
    'Morgan Owner',
  );
  const company = db.prepare(
    'INSERT INTO client_company (id, name, parent_id, is_universal) VALUES (?, ?, ?, ?)',
  );
  company.run(1, 'Acme Events Ltd', null, 1);
  ['Acme North', 'Acme South', 'Acme Digital', 'Acme & Partners'].forEach((n, i) =>
    company.run(i + 2, n, 1, 0),
  );
  company.run(6, 'Acme Universal', 1, 1);
  const roadshow = db.prepare('INSERT INTO roadshow (id, name, max_guests) VALUES (?, ?, ?)');
  ['Spring Tour', 'Autumn Tour', 'Regional Roadshow'].forEach((n, i) =>
    roadshow.run(i + 1, n, 2 + i),
  );
  const bs = db.prepare('INSERT INTO booking_status (id, name, status_type) VALUES (?, ?, ?)');
  for (const row of BOOKING_STATUSES) bs.run(...row);

  const speaker = db.prepare(
    'INSERT INTO speaker (id, forename, surname, occupation, organisation, telephone, email, website) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const speakerSeries = db.prepare('INSERT INTO speaker_series (speaker_id, series) VALUES (?, ?)');
  for (let i = 1; i <= 12; i++) {
    const [f, s] = [rng.pick(FORENAMES), rng.pick(SURNAMES)];
    speaker.run(
      i,
      f,
      s,
      rng.pick(OCCUPATIONS),
      rng.pick(ORGANISATIONS),
      `+44 20 7946 ${String(1000 + i)}`,
      `speaker${i}@speakers.example.com`,
      `https://speakers.example.com/${i}`,
    );
    speakerSeries.run(i, SERIES[i % SERIES.length]!);
    if (i % 3 === 0) speakerSeries.run(i, SERIES[(i + 1) % SERIES.length]!);
  }
  seedShows(db, rng);
  return Array.from({ length: events }, (_, i) => seedEvent(db, rng, i + 1));
}

function seedShows(db: Db, rng: Rng): void {
  const show = db.prepare(
    'INSERT INTO show (id, name, long_name, venue, notes, rtf, status, pnum, start_date, end_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const perf = db.prepare(
    'INSERT INTO show_performance (show_id, name, type, venue, notes, day, start_at, end_at, stock, hold, sold, price_cents, unit_cost_cents, sku) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  ['Gala Dinner', 'Awards Night', 'Evening Concert'].forEach((name, i) => {
    const start = 30 + i * 40;
    show.run(
      i + 1,
      name,
      `${name} ${BASE.y}`,
      rng.pick(VENUES),
      'Black tie',
      '{\\rtf1 demo}',
      1,
      i + 1,
      localDateTime(BASE, start, 19),
      localDateTime(BASE, start + 2, 23),
    );
    for (let p = 0; p < 2 + i; p++) {
      const stock = rng.int(80, 200);
      const sold = rng.int(0, stock / 2);
      perf.run(
        i + 1,
        `${name} night ${p + 1}`,
        p % 2 ? 'Matinee' : 'Evening',
        rng.pick(VENUES),
        '',
        localDateTime(BASE, start + p),
        localDateTime(BASE, start + p, 19),
        localDateTime(BASE, start + p, 23),
        stock,
        rng.int(0, 10),
        sold,
        rng.int(30, 90) * 100 + 50,
        rng.int(10, 25) * 100,
        p === 0 ? null : `SKU-${i + 1}-${p}`,
      );
    }
  });
}

function seedEvent(db: Db, rng: Rng, id: number): SeededEvent {
  const [kind, code] = EVENT_KINDS[id % EVENT_KINDS.length]!;
  const topic = TOPICS[id % TOPICS.length]!;
  const startDay = id * 9 - 60;
  const length = kind === 'Webinar' ? 1 : rng.int(1, 3);
  const archived = id % 6 === 0;
  const prefix = `${code}${String(id).padStart(3, '0')}`;
  const series = SERIES[id % SERIES.length]!;
  db.prepare(
    `INSERT INTO event VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    `${topic} ${kind} ${BASE.y}`,
    `The ${topic.toLowerCase()} ${kind.toLowerCase()} for practitioners & researchers.`,
    `${topic} ${kind}`,
    `A longer description of the ${topic} ${kind}.`,
    `${code}-${id}`,
    prefix,
    `INV${id}`,
    'Events Helpdesk',
    '+44 20 7946 0000',
    `help+${id}@events.example.com`,
    rng.pick(VENUES),
    rng.pick(['United Kingdom', 'Ireland', 'France']),
    kind,
    archived ? 'Closed' : 'Live',
    series,
    rng.pick(ROOMS),
    'Acme Events',
    `https://events.example.com/e/${id}`,
    `AN1-${id % 4}`,
    `AN2-${id % 3}`,
    localDateTime(BASE, startDay, 9),
    localDateTime(BASE, startDay + length - 1, 17),
    localDateTime(BASE, startDay - 90),
    localDateTime(BASE, startDay - 1, 23, 59),
    localDateTime(BASE, startDay - 5, 12),
    localDateTime(BASE, startDay - 120, 10),
    100_000,
    id % 3 === 0 ? 1 : 0,
    rng.int(0, 12),
    archived ? 1 : 0,
    id % 2,
    id % 7 === 0 ? 1 : 0,
    kind === 'Webinar' ? 1 : 0,
    20_000,
    id % 4 === 0 ? 1 + (id % 3) : null,
    1,
    2 + (id % 4),
  );
  const days = Array.from({ length }, (_, d) => localDateTime(BASE, startDay + d));
  const statuses = seedStatuses(db, id);
  const tickets = seedTickets(db, rng, id, days);
  const sessionIds = seedSessions(db, rng, id, tickets, days[0]!);
  const customFieldIds = seedCustomFields(db, id);
  seedEventDetails(db, rng, id);
  return { id, archived, tickets, statuses, customFieldIds, sessionIds, prefix, days };
}

function seedStatuses(db: Db, eventId: number): SeededEvent['statuses'] {
  const st = db.prepare(
    'INSERT INTO attendee_status (event_id, name, is_attending, is_default, status_type, linked_booking_status_id, is_default_cancelled) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const id = (r: { lastInsertRowid: number | bigint }) => Number(r.lastInsertRowid);
  return {
    attending: id(st.run(eventId, 'Attending', 1, 1, 'Attending', 1, 0)),
    cancelled: id(st.run(eventId, 'Cancelled', 0, 0, 'Cancelled', 3, 1)),
    waiting: id(st.run(eventId, 'Waiting List', 0, 0, 'Waiting', 4, 0)),
    attended: id(st.run(eventId, 'Attended', 1, 0, 'Attending', 1, 0)),
  };
}

function seedTickets(db: Db, rng: Rng, eventId: number, days: string[]): SeededEvent['tickets'] {
  const at = db.prepare('INSERT INTO attendee_type (event_id, name) VALUES (?, ?)');
  const tt = db.prepare(
    'INSERT INTO ticket_type (event_id, name, capacity, gross_price_e5, tax_rate_e5, days_valid, is_open, available_from, available_to, min_age, external_site) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const link = db.prepare(
    'INSERT INTO ticket_type_attendee_type (ticket_type_id, attendee_type_id) VALUES (?, ?)',
  );
  const att = db.prepare('INSERT INTO ticket_attendance_type (ticket_type_id, name) VALUES (?, ?)');
  const day = db.prepare('INSERT INTO ticket_type_day (ticket_type_id, day) VALUES (?, ?)');
  const tickets: SeededEvent['tickets'] = [];
  for (const name of ['Delegate', 'Speaker', 'Exhibitor']) {
    const attendeeTypeId = Number(at.run(eventId, name).lastInsertRowid);
    for (const [label, net] of name === 'Delegate'
      ? ([
          ['Standard', rng.int(50, 400)],
          ['Early Bird', rng.int(20, 49)],
        ] as const)
      : ([[`${name} pass`, 0]] as const)) {
      // Whole pounds net at 20 %; net and tax of a booking come from computeCosts, like the handler's.
      const grossCents = (net * 100 * (E5_PER_UNIT + TAX_RATE_E5)) / E5_PER_UNIT;
      const { netCents } = computeCosts(grossCents, TAX_RATE_E5);
      const capacity = label === 'Early Bird' ? 5_000 : null;
      const id = Number(
        tt.run(
          eventId,
          `${name} – ${label}`,
          capacity,
          grossCents * E5_PER_CENT,
          TAX_RATE_E5,
          days.length > 1 && label === 'Standard' ? days.length : null,
          1,
          localDateTime(BASE, -200),
          localDateTime(BASE, 400),
          name === 'Delegate' ? 18 : 0,
          0,
        ).lastInsertRowid,
      );
      link.run(id, attendeeTypeId);
      att.run(id, days.length > 1 ? 'Multi-day' : 'Single day');
      if (rng.chance(0.5)) att.run(id, 'Online');
      for (const d of days) day.run(id, d);
      tickets.push({ id, attendeeTypeId, capacity, grossCents, netCents });
    }
  }
  return tickets;
}

function seedSessions(
  db: Db,
  rng: Rng,
  eventId: number,
  tickets: SeededEvent['tickets'],
  firstDay: string,
): number[] {
  const s = db.prepare(
    'INSERT INTO bookable_session (event_id, title, code, allow_guests, capacity, start_at, end_at, tax_rate_e5, gross_price_e5, waiting_list_capacity, has_waiting_list, maximum_guests, venue_name, venue_room) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const stt = db.prepare(
    'INSERT INTO session_ticket_type (session_id, attendee_type_id, ticket_type_id) VALUES (?, ?, ?)',
  );
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const hasWaiting = i % 2 === 0;
    const id = Number(
      s.run(
        eventId,
        `Session ${i + 1}: ${rng.pick(TOPICS)}`,
        i === 2 ? '' : `S${eventId}-${i + 1}`,
        i % 2,
        rng.int(20, 200),
        firstDay.replace('T00:00:00', `T${10 + i}:00:00`),
        firstDay.replace('T00:00:00', `T${11 + i}:00:00`),
        20_000,
        i * 1_500_000,
        hasWaiting ? 20 : null,
        hasWaiting ? 1 : 0,
        i % 2 ? 2 : null,
        rng.pick(VENUES),
        rng.pick(ROOMS),
      ).lastInsertRowid,
    );
    for (const t of tickets.slice(0, 2)) stt.run(id, t.attendeeTypeId, t.id);
    ids.push(id);
  }
  return ids;
}

function seedCustomFields(db: Db, eventId: number): number[] {
  const f = db.prepare('INSERT INTO custom_field (event_id, name, type) VALUES (?, ?, ?)');
  const o = db.prepare('INSERT INTO custom_field_option (field_id, ord, value) VALUES (?, ?, ?)');
  const diet = Number(f.run(eventId, 'Dietary requirements', 'DropDown').lastInsertRowid);
  ['None', 'Vegetarian', 'Vegan', 'Halal', 'Kosher'].forEach((v, i) => o.run(diet, i, v));
  const notes = Number(f.run(eventId, 'Accessibility needs', 'Text').lastInsertRowid);
  return [diet, notes];
}

function seedEventDetails(db: Db, rng: Rng, eventId: number): void {
  db.prepare(
    'INSERT INTO event_website (event_id, name, url, is_default, booking_form) VALUES (?, ?, ?, 1, ?), (?, ?, ?, 0, ?)',
  ).run(
    eventId,
    'Main site',
    `https://events.example.com/e/${eventId}`,
    'Main booking form',
    eventId,
    'Partner site',
    `https://partners.example.com/e/${eventId}`,
    'Partner form',
  );
  const c = db.prepare(
    'INSERT INTO event_collaborator (event_id, name, type, ord, link, link_item) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (let i = 0; i < 1 + (eventId % 3); i++)
    c.run(
      eventId,
      `${rng.pick(FORENAMES)} ${rng.pick(SURNAMES)}`,
      i === 0 ? 'Organiser' : 'Speaker',
      i + 1,
      `https://events.example.com/people/${eventId}-${i}`,
      `P${i}`,
    );
  db.prepare(
    'INSERT INTO event_profile (event_id, profile_type_id, profile_type, value_name) VALUES (?, 1, ?, ?), (?, 2, ?, ?)',
  ).run(
    eventId,
    'Sector',
    rng.pick(['Health', 'Energy', 'Education']),
    eventId,
    'Level',
    rng.pick(['Introductory', 'Advanced']),
  );
  db.prepare('INSERT INTO event_venue (event_id, venue_id) VALUES (?, ?), (?, ?)').run(
    eventId,
    100 + (eventId % 5),
    eventId,
    200 + (eventId % 3),
  );
  db.prepare('INSERT INTO event_link (event_id, ord, url) VALUES (?, 0, ?), (?, 1, ?)').run(
    eventId,
    `https://events.example.com/e/${eventId}/agenda`,
    eventId,
    `https://events.example.com/e/${eventId}/venue?x=1&y=2`,
  );
}
