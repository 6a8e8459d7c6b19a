// What `evgen diff` reports: changes between two versions of the spec, each found by one rule and
// classified per audience, because SOAP clients differ in what a change breaks.
import {
  AUDIENCES as SPEC_AUDIENCES,
  type AudienceName,
} from '../generator/spec/format-service.js';
import type { RuleId } from './rules.js';

/** breaking: fails for every value; dangerous: fails for some values or some uses; safe: none. */
export type Severity = 'breaking' | 'dangerous' | 'safe';
export const SEVERITIES: readonly Severity[] = ['breaking', 'dangerous', 'safe'];

/**
 * wire-lax: clients that ignore unknown elements and element order (zeep, node-soap, the
 * generated client); wire-strict: schema-validating clients (sequence order, new elements,
 * minOccurs and nillable matter); typescript: code using the generated types, client and server.
 * The spec says which it keeps (compatibility.audiences): reports judge a change by those.
 */
export type Audience = AudienceName;
export const AUDIENCES: readonly Audience[] = SPEC_AUDIENCES;

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

/** The worst severity for the audiences `kept` (all by default): the change's headline. */
export function worst(s: Severities, kept: readonly Audience[] = AUDIENCES): Severity {
  return kept.map((a) => s[a]).reduce<Severity>((m, x) => (RANK[x] > RANK[m] ? x : m), 'safe');
}

/**
 * The audiences a diff judges by: those the head spec keeps and those the base kept. A release's
 * promise holds for its whole major line, so a commit narrowing compatibility.audiences together
 * with a change breaking the audience it drops still needs a major version.
 */
export function keptAudiences(base: Compatible, head: Compatible): Audience[] {
  const keeps = (v: Compatible, a: Audience) => v.ir.compatibility.audiences.includes(a);
  return AUDIENCES.filter((a) => keeps(base, a) || keeps(head, a));
}
interface Compatible {
  readonly ir: { readonly compatibility: { readonly audiences: readonly Audience[] } };
}

export function atLeast(s: Severity, threshold: Severity): boolean {
  return RANK[s] >= RANK[threshold];
}
