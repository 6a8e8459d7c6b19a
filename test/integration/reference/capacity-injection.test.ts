// Capacity is enforced atomically under concurrency; SQL and XML metacharacters are data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '@evgen/runtime';
import { limitedTicketType, startReference, type Reference } from './harness.js';

let ref: Reference;
beforeAll(async () => {
  // 200 calls at once from this one address: more connections than one client may hold by default.
  ref = await startReference({ events: 6, bookings: 200 }, { maxConnectionsPerClient: 256 });
});
afterAll(() => ref.stop());

describe('capacity', () => {
  it('200 simultaneous bookings on a ticket type of capacity 50: exactly 50 succeed, 150 are Conflict faults', async () => {
    const { attendeeTypeId, ticketTypeId } = await limitedTicketType(ref.svc.database, 3, 50);
    const before = (await ref.client().getEventDetails7({ eventId: 3 })).AttendeeCount;

    const bindings = ['soap11', 'soap12', 'httpGet', 'httpPost'] as const;
    const clients = bindings.map((b) => ref.client(b));
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        clients[i % 4]!.submitSimpleBookingWithBookingStatus({
          eventId: 3,
          attendeeTypeId,
          ticketTypeId,
          bookingStatusId: 1,
          contactId: 1 + (i % 50),
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ServiceError);
      expect((r.reason as ServiceError).code).toBe('Conflict');
    }

    const types = await ref.client().getAttendeeTypes({ eventId: 3 });
    expect(
      types.flatMap((t) => t.TicketTypes).find((t) => t.TicketTypeId === ticketTypeId),
    ).toMatchObject({ Capacity: 50, AttendeeCount: 50 });
    expect((await ref.client().getEventDetails7({ eventId: 3 })).AttendeeCount).toBe(before + 50);
    expect(await ref.column('SELECT count(*) FROM outbox')).toEqual([50]);
  });
});

describe('injection', () => {
  const PAYLOADS = [
    "' OR 1=1 --",
    '"; DROP TABLE booking; --',
    '<x>&amp;</x>]]>',
    '%',
    '_',
    '\\',
    "demo@example.com' --",
  ];
  const countBookings = async () => ref.value<number>('SELECT count(*) FROM booking');

  it('treats metacharacters in every string parameter as data', async () => {
    const c = ref.client();
    const bookings = await countBookings();
    for (const p of PAYLOADS) {
      expect(
        (await c.eventProfileSearch({ searchQuery: `"${p.replace(/"/g, '')}"` })).Events,
        p,
      ).toEqual([]);
      expect(
        (await c.eventProfileSearch({ searchQuery: `code:"${p.replace(/"/g, '')}"` })).Events,
        p,
      ).toEqual([]);
      expect(await c.getSpeakersforSeries({ seriesValue: p })).toEqual([]);
      for (const call of [
        () => c.getContact({ email: p }),
        () => c.getContact2({ emailAddress: p }),
        () => c.getContactEventHistory3({ email: p }),
        () => c.cancelAttendee({ attendeeReference: p }),
        () => c.cancelBooking({ bookingReference: p }),
        () => c.verifyTokenForContact({ tokenType: 'ContactRegistration', tokenValue: p }),
      ]) {
        await expect(call(), p).rejects.toMatchObject({ code: 'NotFound' });
      }
    }
    expect(await countBookings()).toBe(bookings);
    expect((await c.getContact({ email: 'demo@example.com' })).ContactId).toBe(1);
  });

  it('answers a stray quote in searchQuery with InvalidParameter', async () => {
    await expect(
      ref.client().eventProfileSearch({ searchQuery: 'title "unclosed' }),
    ).rejects.toMatchObject({
      code: 'InvalidParameter',
      faultString: 'searchQuery: unclosed quotation mark',
    });
  });
});
