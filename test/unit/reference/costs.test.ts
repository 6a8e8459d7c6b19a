// Booking costs: the reproduction of the stored-cost bug (gross 10.01 at 20 % was stored as net
// 10.01, tax 0.00), then computeCosts against exact decimal arithmetic over the whole range.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { computeCosts } from '../../../src/reference/costs.js';
import { migrate, openDatabase } from '../../../src/reference/sqlite/open.js';
import { SqliteStore } from '../../../src/reference/sqlite/store.js';
import { referenceHandlers } from '../../../src/reference/handlers/index.js';
import { seed } from '../../../src/reference/seed/index.js';

const dir = mkdtempSync(join(tmpdir(), 'evgen-costs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = { apiKey: 'k', apiKeyName: 'k', operation: 'x', binding: 'soap11' } as const;

describe('SubmitSimpleBookingWithBookingStatus stores costs that add up', () => {
  it.each([
    { given: { gross: '10.01', rate: '0.20000' }, want: { net: 834, tax: 167 } },
    { given: { gross: '120.00', rate: '0.20000' }, want: { net: 10000, tax: 2000 } },
    { given: { gross: '0.01', rate: '0.20000' }, want: { net: 1, tax: 0 } },
    { given: { gross: '19.99', rate: '0.05000' }, want: { net: 1904, tax: 95 } },
  ])('gross $given.gross at rate $given.rate', async ({ given, want }) => {
    const db = openDatabase(join(dir, `${given.gross}-${given.rate}.sqlite`));
    try {
      seed(db, { events: 2, bookings: 10 });
      const e5 = (s: string) => Math.round(Number(s) * 100_000);
      db.prepare('UPDATE ticket_type SET gross_price_e5 = ?, tax_rate_e5 = ? WHERE id = 1').run(
        e5(given.gross),
        e5(given.rate),
      );
      const t = db.prepare('SELECT event_id, id FROM ticket_type WHERE id = 1').get() as {
        event_id: number;
      };
      const attendeeTypeId = db
        .prepare('SELECT attendee_type_id FROM ticket_type_attendee_type WHERE ticket_type_id = 1')
        .pluck()
        .get() as number;
      const r = await referenceHandlers(new SqliteStore(db)).submitSimpleBookingWithBookingStatus(
        { eventId: t.event_id, attendeeTypeId, ticketTypeId: 1, bookingStatusId: 1, contactId: 1 },
        ctx,
      );
      expect(
        db
          .prepare('SELECT gross_cents, net_cents, tax_cents FROM booking WHERE id = ?')
          .get(r.BookingId),
      ).toEqual({ gross_cents: e5(given.gross) / 1000, net_cents: want.net, tax_cents: want.tax });
    } finally {
      db.close();
    }
  });
});

/**
 * The oracle: decimal long division of gross ÷ (1 + rate) written out to a thousandth of a cent,
 * then rounded half up on the digits, as one would on paper. Inputs are the decimal strings a
 * ticket type holds (2 places for money, 5 for the rate).
 */
function exactNet(gross: string, rate: string): bigint {
  const digits = (s: string) => BigInt(s.replace('.', ''));
  const [g, r] = [digits(gross), digits(rate)]; // cents; 1e-5 units
  const thousandths = (g * 100_000n * 1000n) / (100_000n + r); // of a cent, truncated
  const [whole, frac] = [thousandths / 1000n, thousandths % 1000n];
  return frac >= 500n ? whole + 1n : whole;
}
const decimal = (units: bigint, scale: number) => {
  const s = units.toString().padStart(scale + 1, '0');
  return `${s.slice(0, -scale)}.${s.slice(-scale)}`;
};

describe('computeCosts', () => {
  it('rounds net half up to the cent and keeps net + tax = gross, over the whole range', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.maxSafeNat(), (gross, rate) => {
        const c = computeCosts(gross, rate);
        const want = exactNet(decimal(BigInt(gross), 2), decimal(BigInt(rate), 5));
        expect(BigInt(c.netCents)).toBe(want);
        expect(c.netCents + c.taxCents).toBe(gross);
        expect(c.taxCents).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 10_000 },
    );
  });

  it('agrees with the oracle on everyday prices and the usual rates', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom(0, 5_000, 7_000, 12_500, 19_000, 20_000, 21_000, 25_000),
        (gross, rate) => {
          const want = exactNet(decimal(BigInt(gross), 2), decimal(BigInt(rate), 5));
          expect(BigInt(computeCosts(gross, rate).netCents)).toBe(want);
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it.each([
    { given: [1001, 20_000], want: { netCents: 834, taxCents: 167 } },
    { given: [1, 100_000], want: { netCents: 1, taxCents: 0 } }, // 0.005 exactly: half up
    { given: [3, 100_000], want: { netCents: 2, taxCents: 1 } }, // 0.015: half up
    { given: [0, 20_000], want: { netCents: 0, taxCents: 0 } },
    { given: [12345, 0], want: { netCents: 12345, taxCents: 0 } },
  ])('$given → $want', ({ given: [gross, rate], want }) => {
    expect(computeCosts(gross!, rate!)).toEqual({ grossCents: gross, ...want });
  });

  it.each([
    [-1, 0],
    [1.5, 0],
    [0, -1],
    [Number.MAX_SAFE_INTEGER + 1, 0],
  ])('refuses gross %s at rate %s', (gross, rate) => {
    expect(() => computeCosts(gross, rate)).toThrow(RangeError);
  });
});

describe('stored costs', () => {
  it('migration 5 recomputes the rows the old handler wrote, and only those', () => {
    const db = openDatabase(join(dir, 'migration.sqlite'));
    try {
      seed(db, { events: 2, bookings: 40 });
      const one = db
        .prepare(
          'SELECT b.id, a.ticket_type_id FROM booking b JOIN attendee a ON a.booking_id = b.id GROUP BY b.id HAVING count(*) = 1 ORDER BY b.id LIMIT 2',
        )
        .raw()
        .all() as [number, number][];
      const [[wrong, ticket], [right]] = one as [[number, number], [number]];
      db.prepare(
        'UPDATE ticket_type SET gross_price_e5 = 1001000, tax_rate_e5 = 20000 WHERE id = ?',
      ).run(ticket);
      // What the old handler stored for gross 10.01 at 20 %.
      db.prepare(
        'UPDATE booking SET gross_cents = 1001, net_cents = 1001, tax_cents = 0 WHERE id = ?',
      ).run(wrong);
      const costs = db.prepare(
        'SELECT gross_cents, net_cents, tax_cents FROM booking WHERE id = ?',
      );
      const before = costs.all(right);
      db.prepare('DELETE FROM schema_migrations WHERE version = 5').run();
      expect(migrate(db)).toEqual([5]);
      expect(costs.get(wrong)).toEqual({ gross_cents: 1001, net_cents: 834, tax_cents: 167 });
      expect(costs.all(right)).toEqual(before);
    } finally {
      db.close();
    }
  });

  it('demo data: every booking is the sum of computeCosts over its attendees’ tickets', () => {
    const db = openDatabase(join(dir, 'demo.sqlite'));
    try {
      seed(db, { events: 6, bookings: 500 });
      const rows = db
        .prepare(
          `SELECT b.gross_cents, b.net_cents, b.tax_cents, json_group_array(json_array(t.gross_price_e5, t.tax_rate_e5))
           FROM booking b JOIN attendee a ON a.booking_id = b.id JOIN ticket_type t ON t.id = a.ticket_type_id GROUP BY b.id`,
        )
        .raw()
        .all() as [number, number, number, string][];
      expect(rows).toHaveLength(500);
      for (const [gross, net, tax, tickets] of rows) {
        const parts = (JSON.parse(tickets) as [number, number][]).map(([g, r]) =>
          computeCosts(g / 1000, r),
        );
        expect({ gross, net, tax }).toEqual({
          gross: parts.reduce((s, c) => s + c.grossCents, 0),
          net: parts.reduce((s, c) => s + c.netCents, 0),
          tax: parts.reduce((s, c) => s + c.taxCents, 0),
        });
      }
    } finally {
      db.close();
    }
  });
});
