// Migration 5: bookings written before computeCosts. The old handler stored net = gross and tax
// 0 whenever gross ÷ (1 + rate) was not a whole number of cents (gross 10.01 at 20 %: net 10.01,
// tax 0.00). Such a row is recognisable: one attendee (the handler booked one), tax 0 and net =
// gross although its ticket type has a tax rate. Its costs are computed again, by the same
// function the handler now uses; every other row is left as it is.
import { computeCosts } from '../costs.js';
import type { Db } from './open.js';

export function fixBookingCosts(db: Db): void {
  const wrong = db
    .prepare(
      `SELECT b.id, b.gross_cents, t.tax_rate_e5 FROM booking b
       JOIN attendee a ON a.booking_id = b.id JOIN ticket_type t ON t.id = a.ticket_type_id
       WHERE b.tax_cents = 0 AND b.net_cents = b.gross_cents AND t.tax_rate_e5 > 0
         AND (SELECT count(*) FROM attendee WHERE booking_id = b.id) = 1`,
    )
    .raw()
    .all() as [number, number, number][];
  const fix = db.prepare('UPDATE booking SET net_cents = ?, tax_cents = ? WHERE id = ?');
  for (const [id, gross, rate] of wrong) {
    const c = computeCosts(gross, rate);
    fix.run(c.netCents, c.taxCents, id);
  }
}
