// Migration 5: bookings written before computeCosts. The old handler stored net = gross and tax
// 0 whenever gross ÷ (1 + rate) was not a whole number of cents (gross 10.01 at 20 %: net 10.01,
// tax 0.00). Such a row is recognisable: one attendee (the handler booked one), tax 0 and net =
// gross although its ticket type has a tax rate. Its costs are computed again, by the same
// function the handler now uses; every other row is left as it is.
import { computeCosts } from '../costs.js';
import { columns, int } from '../store/columns.js';
import type { Db } from './open.js';

const WRONG = columns<{ id: number; grossCents: number; taxRateE5: number }>({
  id: int('b.id'),
  grossCents: int('b.gross_cents'),
  taxRateE5: int('t.tax_rate_e5'),
});

export function fixBookingCosts(db: Db): void {
  const wrong = WRONG.rows(
    db
      .prepare(
        `SELECT ${WRONG.exprs} FROM booking b
         JOIN attendee a ON a.booking_id = b.id JOIN ticket_type t ON t.id = a.ticket_type_id
         WHERE b.tax_cents = 0 AND b.net_cents = b.gross_cents AND t.tax_rate_e5 > 0
           AND (SELECT count(*) FROM attendee WHERE booking_id = b.id) = 1`,
      )
      .raw()
      .all() as unknown[][],
  );
  const fix = db.prepare('UPDATE booking SET net_cents = ?, tax_cents = ? WHERE id = ?');
  for (const b of wrong) {
    const c = computeCosts(b.grossCents, b.taxRateE5);
    fix.run(c.netCents, c.taxCents, b.id);
  }
}
