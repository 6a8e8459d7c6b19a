// What the checker reports: one result per operation (or group) × binding × check, at one level,
// naming its source; and the findings a check collects on the way.
import type { Binding } from '../transport/index.js';
import type { CheckFamily, ConformanceModel, Level } from './model.js';

export type CheckStatus = 'pass' | 'fail' | 'skip' | 'not-implemented';

export interface ConformanceResult {
  /** An operation's name, or a group of checks (WSDL, Authentication, Errors, Hostile). */
  readonly group: string;
  /** A binding id of the service, or `wsdl` for the WSDL check. */
  readonly binding: Binding;
  readonly check: string;
  readonly level: Level;
  /** A document section, or `gap:<id>` of spec/gaps.yaml. */
  readonly source: string;
  readonly status: CheckStatus;
  /** Every failure, not only the first. */
  readonly failures: readonly string[];
  readonly warnings: readonly string[];
  /** Why it was skipped or is not implemented. */
  readonly reason?: string;
}

/** Names of checks that also hold answers seen in passing (a proxy's), as reports name them. */
export const CHECK_NAMES = {
  faultForm: 'faults carry their code and status',
  faultText: 'fault texts hold no stack trace or file path',
  wsdl: '?wsdl describes every operation',
} as const;

/** Failures against the document, and failures against gap decisions (by gap id). */
export class Findings {
  readonly failures: string[] = [];
  readonly warnings: string[] = [];
  readonly decided = new Map<string, string[]>();
  fail(message: string, gap: string | null = null): void {
    if (gap === null) this.failures.push(message);
    else this.decided.set(gap, [...(this.decided.get(gap) ?? []), message]);
  }
}

/** `gap:<id>` for a gap id, the section name otherwise. */
export const sourceName = (level: Level, source: string): string =>
  level === 'evgen' && !source.startsWith('spec/') ? `gap:${source}` : source;

export function resultOf(
  model: ConformanceModel,
  family: CheckFamily,
  at: { group: string; binding: Binding; check: string },
  failures: readonly string[],
  warnings: readonly string[] = [],
): ConformanceResult {
  const k = model.checks[family];
  return {
    ...at,
    level: k.level,
    source: sourceName(k.level, k.source),
    status: failures.length ? 'fail' : 'pass',
    failures: [...new Set(failures)], // one cause (no answer) can fail several of a check's rules
    warnings,
  };
}

export function skipped(
  model: ConformanceModel,
  family: CheckFamily,
  at: { group: string; binding: Binding; check: string },
  status: 'skip' | 'not-implemented',
  reason: string,
): ConformanceResult {
  return { ...resultOf(model, family, at, []), status, reason };
}
