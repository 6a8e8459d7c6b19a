// What a booking costs: the gross price is what the ticket type says; net and tax are derived
// from it and the ticket type's tax rate by one rule (docs/design/decisions.md, "Booking
// costs"): net = gross ÷ (1 + rate) rounded to the cent, halves rounded up; tax = gross − net,
// so net + tax is always exactly gross. Integer minor units in and out, BigInt in between, so no
// amount ever passes through a float and no intermediate product can overflow.

/** Minor units per currency unit of money (2 places) and of prices and rates (5 places). */
export const CENTS_PER_UNIT = 100;
export const E5_PER_UNIT = 100_000;
/** 1e-5 units per cent: a price in 1e-5 units is chargeable only when it is a multiple of this. */
export const E5_PER_CENT = E5_PER_UNIT / CENTS_PER_UNIT;

export interface Costs {
  readonly grossCents: number;
  readonly netCents: number;
  readonly taxCents: number;
}

/**
 * Net and tax of a gross amount in cents at a tax rate in 1e-5 units (0.20000 = 20 % is 20_000).
 * Both must be safe non-negative integers; anything else is a programming error (RangeError).
 */
export function computeCosts(grossCents: number, taxRateE5: number): Costs {
  for (const [name, v] of [
    ['grossCents', grossCents],
    ['taxRateE5', taxRateE5],
  ] as const)
    if (!Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`${name} must be a non-negative safe integer, got ${v}`);
  // net = gross × 1e5 / (1e5 + rate), rounded half up: floor((2 × gross × 1e5 + d) / 2d).
  const d = BigInt(E5_PER_UNIT) + BigInt(taxRateE5);
  const netCents = Number((2n * BigInt(grossCents) * BigInt(E5_PER_UNIT) + d) / (2n * d));
  return { grossCents, netCents, taxCents: grossCents - netCents };
}
