// Booking load on one or several nodes for the crash and fault tests: writers book on the node they are given (or
// the next live one), and every answer is recorded, so a test can say what was acknowledged, what
// was refused and how, and when.
import { ServiceError } from '@evgen/event-management/errors';
import { EventServiceClient } from '@evgen/event-management/client';
import type { ReferenceDatabase } from '../../src/reference/database.js';
import { reader } from './backend.js';
import { completeClient } from './complete.js';

export interface Outcome {
  readonly at: number;
  readonly node: number;
  /** ok, a fault code, or 'transport' (no HTTP answer: the node is gone). */
  readonly result: string;
  readonly httpStatus?: number | undefined;
}

export interface Load {
  readonly acked: { id: number; ref: string }[];
  readonly outcomes: Outcome[];
  /** Stops the writers and waits for them. */
  stop(): Promise<void>;
}

/** `writers` loops booking on event 1 (ticket type 1), writer w on node w % nodes while it answers. */
export function bookingLoad(
  urls: readonly string[],
  key: { apiKey: string; secretKey: string },
  writers: number,
  o: { isDown?: (node: number) => boolean; pauseMs?: number } = {},
): Load {
  const acked: Load['acked'] = [];
  const outcomes: Outcome[] = [];
  let stopping = false;
  const clients = urls.map((baseUrl) =>
    completeClient(new EventServiceClient({ baseUrl, ...key, timeoutMs: 10_000 })),
  );
  const writer = async (w: number) => {
    for (let i = 0; !stopping; i++) {
      let node = w % urls.length;
      while (o.isDown?.(node)) node = (node + 1) % urls.length;
      try {
        const r = await clients[node]!.submitSimpleBookingWithBookingStatus({
          eventId: 1,
          attendeeTypeId: 1,
          ticketTypeId: 1,
          bookingStatusId: 1,
          contactId: 1 + ((w * 31 + i) % 40),
        });
        acked.push({ id: r.BookingId, ref: r.BookingReference });
        outcomes.push({ at: Date.now(), node, result: 'ok' });
      } catch (e) {
        outcomes.push({
          at: Date.now(),
          node,
          result: e instanceof ServiceError ? e.code : 'transport',
          httpStatus: e instanceof ServiceError ? e.httpStatus : undefined,
        });
        await new Promise((r) => setTimeout(r, o.pauseMs ?? 20));
      }
    }
  };
  const running = Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
  return {
    acked,
    outcomes,
    async stop() {
      stopping = true;
      await running;
    },
  };
}

/** Until `n` bookings are acknowledged (bounded: throws after `ms`). */
export async function untilAcked(load: Load, n: number, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (load.acked.length < n) {
    if (Date.now() > deadline) throw new Error(`only ${load.acked.length} of ${n} acknowledged`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every acknowledged booking is in the database, whole (its attendee and its e-mail), and nothing is half-written. */
export async function missingBookings(
  db: ReferenceDatabase,
  acked: Load['acked'],
): Promise<string[]> {
  const { one, value } = reader(db);
  const missing: string[] = [];
  for (const a of acked) {
    const row = await one<{ reference: string | null; attendees: number; mails: number }>(
      'SELECT (SELECT reference FROM booking WHERE id = ?) AS reference, (SELECT count(*) FROM attendee WHERE booking_id = ?) AS attendees, (SELECT count(*) FROM outbox WHERE booking_id = ?) AS mails',
      a.id,
      a.id,
      a.id,
    );
    if (row.reference !== a.ref || row.attendees !== 1 || row.mails !== 1)
      missing.push(`${a.id} ${a.ref}: ${JSON.stringify(row)}`);
  }
  const orphans = await value<number>(
    'SELECT count(*) FROM booking b WHERE NOT EXISTS (SELECT 1 FROM attendee a WHERE a.booking_id = b.id)',
  );
  if (orphans > 0) missing.push(`${orphans} bookings without an attendee`);
  return missing;
}
