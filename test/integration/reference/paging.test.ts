// client.iterate over the reference service: every booking of an event in BookingId order, one
// request per page, and no request before the consumer needs the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventServiceClient } from '@evgen/event-management/client';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
let ids: number[];
beforeAll(async () => {
  ref = await startReference({ events: 3, bookings: 60 });
  ids = await ref.column<number>('SELECT id FROM booking WHERE event_id = 1 ORDER BY id');
});
afterAll(() => ref.stop());

/** A client counting the requests it sends. */
function counting() {
  const sent: string[] = [];
  const client = new EventServiceClient({
    baseUrl: ref.svc.server.url,
    apiKey: ref.svc.demoKey!.apiKey,
    secretKey: ref.svc.demoKey!.secretKey,
    binding: 'httpGet',
    onRequest: (r) => void sent.push(r.url),
  });
  return { client, sent };
}

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe('client.iterate', () => {
  it('getBookingsBatch yields every booking, one request per page of size', async () => {
    expect(ids.length).toBeGreaterThan(7);
    const { client, sent } = counting();
    const got = await collect(client.iterate.getBookingsBatch({ eventId: 1, size: 7 }));
    expect(got.map((b) => b.BookingId)).toEqual(ids);
    expect(sent).toHaveLength(Math.floor(ids.length / 7) + 1);
  });

  it('getBookings and getExtBookings page by the server page size, from skip on', async () => {
    const { client } = counting();
    const all = await collect(client.iterate.getBookings({ eventId: 1 }));
    expect(all.map((b) => b.BookingId)).toEqual(ids);
    const ext = await collect(client.iterate.getExtBookings({ eventId: 1, skip: 5 }));
    expect(ext.map((b) => b.BookingId)).toEqual(ids.slice(5));
  });

  it('asks for a page only when the consumer reaches it, and stops when the consumer does', async () => {
    const { client, sent } = counting();
    let seen = 0;
    for await (const b of client.iterate.getBookingsBatch({ eventId: 1, size: 4 })) {
      expect(b.BookingId).toBe(ids[seen]);
      seen++;
      expect(sent).toHaveLength(Math.ceil(seen / 4));
      if (seen === 6) break;
    }
    expect(sent).toHaveLength(2);
  });
});
