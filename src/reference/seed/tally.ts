// The attendee counts of migration 2 for seeded attendees, tallied as the seed writes them. The
// insert trigger is set aside while seeding (two upserts an attendee: a fifth of the time), and
// recounting afterwards sorted every attendee twice for its GROUP BYs (10 s of 75 at 1,000,000
// bookings); the seed knows each attendee's event, ticket type and status as it writes it.
// A test holds the result to the GROUP BYs the counts replace.
import type { Db } from '../sqlite/open.js';

type Counts = Map<number, Map<number, number>>;

function bump(counts: Counts, id: number, statusId: number): void {
  let byStatus = counts.get(id);
  if (!byStatus) counts.set(id, (byStatus = new Map<number, number>()));
  byStatus.set(statusId, (byStatus.get(statusId) ?? 0) + 1);
}

export class AttendeeTally {
  readonly #events: Counts = new Map();
  readonly #tickets: Counts = new Map();

  add(eventId: number, ticketTypeId: number, statusId: number): void {
    bump(this.#events, eventId, statusId);
    bump(this.#tickets, ticketTypeId, statusId);
  }

  /** Replaces both count tables' rows with the tally, by status type as the tables keep them. */
  write(db: Db): void {
    const types = new Map(
      db.prepare('SELECT id, status_type FROM attendee_status').raw().all() as [number, string][],
    );
    for (const [table, key, counts] of [
      ['event_attendee_count', 'event_id', this.#events],
      ['ticket_attendee_count', 'ticket_type_id', this.#tickets],
    ] as const) {
      db.prepare(`DELETE FROM ${table}`).run();
      const insert = db.prepare(
        `INSERT INTO ${table} (${key}, status_type, n) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n`,
      );
      for (const [id, byStatus] of counts)
        for (const [statusId, n] of byStatus) insert.run(id, types.get(statusId), n);
    }
  }
}
