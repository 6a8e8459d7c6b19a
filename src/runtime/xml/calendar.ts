// The Gregorian calendar's month lengths, shared by the xs:dateTime checks and the
// AuthenticationHeader's Timestamp (internal: not part of the package's exports).
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Days in month `mo` (1–12) of year `y`; 0 for a month that does not exist. */
export const daysIn = (y: number, mo: number) => (mo === 2 && leap(y) ? 29 : (DAYS[mo - 1] ?? 0));
