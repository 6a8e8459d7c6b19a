// What `evgen diff` reports: changes between two versions of the spec, each found by one rule and
// classified per audience, because SOAP clients differ in what a change breaks.
import type { RuleId } from './rules.js';

/** breaking: fails for every value; dangerous: fails for some values or some uses; safe: none. */
export type Severity = 'breaking' | 'dangerous' | 'safe';
export const SEVERITIES: readonly Severity[] = ['breaking', 'dangerous', 'safe'];

/**
 * wire-lax: clients that ignore unknown elements and element order (zeep, node-soap, the
 * generated client); wire-strict: schema-validating clients (sequence order, new elements,
 * minOccurs and nillable matter); typescript: code using the generated types, client and server.
 */
export type Audience = 'wire-lax' | 'wire-strict' | 'typescript';
export const AUDIENCES: readonly Audience[] = ['wire-lax', 'wire-strict', 'typescript'];

export type Severities = Readonly<Record<Audience, Severity>>;

export interface Location {
  /** The file as it was read: `spec/types/booking.yaml`, `../old/spec/types/booking.yaml`, `v1:spec/types/booking.yaml`. */
  readonly file: string;
  readonly line: number;
}

export interface Change {
  readonly rule: RuleId;
  readonly severities: Severities;
  /** The changed symbol, e.g. `BookingResponse.CreatedDate` or `GetBooking.bookingId`. */
  readonly path: string;
  /** In the head version, or in the base version for what the head no longer has. */
  readonly location: Location;
  readonly message: string;
  /** Operations whose requests or responses the change reaches (what --verify calls). */
  readonly operations: readonly string[];
}

export interface DiffReport {
  readonly changes: readonly Change[];
  readonly baseVersion: string;
  readonly headVersion: string;
}

const RANK: Record<Severity, number> = { breaking: 2, dangerous: 1, safe: 0 };

export function worst(s: Severities): Severity {
  return AUDIENCES.map((a) => s[a]).reduce((m, x) => (RANK[x] > RANK[m] ? x : m), 'safe');
}

export function atLeast(s: Severity, threshold: Severity): boolean {
  return RANK[s] >= RANK[threshold];
}
