// Answers made from kept values (frozen/derivedOnce, the runtime's writeKept): single-record reads
// (event details, a booking, a booking's summary, a contact) read from the read cache are answered
// with one frozen value whose XML is made once. An answer still follows the database: once
// anything is committed, every binding answers the new record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDING_IDS, type BindingId } from '@evgen/event-management/service';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
let email: string;
beforeAll(async () => {
  ref = await startReference({ events: 3, bookings: 20 }, { workers: 0 });
  const [c] = await ref.svc.database.query<{ email: string }>(
    'SELECT email FROM contact ORDER BY id LIMIT 1',
  );
  email = c!.email;
});
afterAll(() => ref.stop());

const EVENT = 2;
const BOOKING = 3;
type Client = ReturnType<Reference['client']>;

/** Each read, on every binding, twice (the second kept): the field the change shows in. */
async function answers(reads: readonly ((c: Client) => Promise<string>)[]): Promise<string[]> {
  const clients = BINDING_IDS.map((b: BindingId) => ref.client(b));
  return Promise.all(clients.flatMap((c) => [1, 2].flatMap(() => reads.map((read) => read(c)))));
}

describe('answers from kept values', () => {
  it.each([
    {
      given: 'an event renamed',
      change: (v: string) => ['UPDATE event SET title = ? WHERE id = ?', v, EVENT] as const,
      reads: [
        (c: Client) => c.getEventDetails3({ eventId: EVENT }).then((d) => d.Title),
        (c: Client) => c.getEventDetails7({ eventId: EVENT }).then((d) => d.Title),
      ],
    },
    {
      given: 'a booking given a new reference',
      change: (v: string) => ['UPDATE booking SET reference = ? WHERE id = ?', v, BOOKING] as const,
      reads: [
        (c: Client) => c.getBooking({ bookingId: BOOKING }).then((b) => b.BookingReference),
        (c: Client) => c.getBookingDetails({ bookingId: BOOKING }).then((b) => b.BookingReference),
      ],
    },
    {
      given: 'a contact renamed',
      change: (v: string) => ['UPDATE contact SET forename = ? WHERE email = ?', v, email] as const,
      reads: [
        (c: Client) => c.getContact({ email }).then((r) => r.Forename),
        (c: Client) => c.getContact2({ emailAddress: email }).then((r) => r.Forename),
      ],
    },
  ])('answer the record on every binding once $given is committed', async ({ change, reads }) => {
    for (const want of ['Changed once', 'Changed & again <2>']) {
      const before = await answers(reads);
      expect(new Set(before).size).toBe(1);
      expect(before[0]).not.toBe(want);
      const [sql, ...params] = change(want);
      await ref.svc.database.query(sql, ...params);
      expect(new Set(await answers(reads))).toEqual(new Set([want]));
    }
  });
});
