// What --verify observes and concludes, per change and audience.
import type { Change, Severity } from '../model.js';
import type { Sample } from './values.js';
import type { RuleId } from '../rules.js';

export type Direction = 'old-client/new-server' | 'new-client/old-server';
export type Outcome = 'ok' | 'lost' | 'failed';

export interface Observation {
  readonly direction: Direction;
  readonly operation: string;
  readonly binding: string;
  readonly sample: Sample;
  readonly outcome: Outcome;
  readonly detail: string;
}

/**
 * confirmed: the behaviour shows the verdict; consistent: nothing contradicts it but nothing shows
 * it either; contradicted: the behaviour disagrees; masked: a more severe change on the same
 * operation explains what was seen; not observed: nothing both versions share exercises it.
 */
export type Verdict = 'confirmed' | 'consistent' | 'contradicted' | 'masked' | 'not observed';

/** The audiences --verify can check: the generated client (wire-lax) and the compiler (typescript). */
export type CheckedAudience = 'wire-lax' | 'typescript';

export interface CheckedChange {
  readonly audience: CheckedAudience;
  readonly rule: RuleId;
  readonly path: string;
  readonly severity: Severity;
  readonly verdict: Verdict;
  readonly detail: string;
}

export interface VerifyResult {
  readonly observations: readonly Observation[];
  readonly changes: readonly CheckedChange[];
  readonly disagreements: readonly CheckedChange[];
}

const RANK: Record<Severity, number> = { breaking: 2, dangerous: 1, safe: 0 };

/** For each operation, the worst severity for `audience` among the changes touching it. */
export function worstPerOperation(changes: readonly Change[], audience: CheckedAudience) {
  const out = new Map<string, Severity>();
  for (const c of changes)
    for (const op of c.operations) {
      const s = c.severities[audience];
      const was = out.get(op);
      if (!was || RANK[s] > RANK[was]) out.set(op, s);
    }
  return out;
}

/** Whether every operation of the change has a more severe change for `audience` on it. */
export function isMasked(c: Change, audience: CheckedAudience, worst: Map<string, Severity>) {
  const s = c.severities[audience];
  return c.operations.length > 0 && c.operations.every((op) => RANK[worst.get(op) ?? s] > RANK[s]);
}

/** What an audience's check saw of one change, as descriptions of the failures. */
export interface Evidence {
  /** Failures that show a change breaking (wire: full values or faults; ts: any probe). */
  readonly breaking: readonly string[];
  /** Failures that contradict anything less than breaking. */
  readonly typical: readonly string[];
  /** Failures that show a change dangerous (wire: sparse values; ts: whole implementations). */
  readonly some: readonly string[];
  /** Every failure: a safe change must have none. */
  readonly any: readonly string[];
  /** What passed, for the messages of verdicts without failures. */
  readonly passed: { readonly breaking: string; readonly dangerous: string; readonly safe: string };
}

/** The verdict on `c` for `audience` from what its check saw; the same rules for every audience. */
export function judge(
  c: Change,
  audience: CheckedAudience,
  worst: Map<string, Severity>,
  e: Evidence,
): CheckedChange {
  const severity = c.severities[audience];
  const v = (verdict: Verdict, detail: string): CheckedChange => ({
    audience,
    rule: c.rule,
    path: c.path,
    severity,
    verdict,
    detail,
  });
  const explained = (bad: readonly string[]) =>
    isMasked(c, audience, worst)
      ? v('masked', `a more severe change on the same operation: ${bad[0]}`)
      : v('contradicted', bad[0]!);
  if (severity === 'breaking')
    return e.breaking.length
      ? v('confirmed', e.breaking[0]!)
      : v('contradicted', e.passed.breaking);
  if (e.typical.length) return explained(e.typical);
  if (severity === 'dangerous')
    return e.some.length ? v('confirmed', e.some[0]!) : v('consistent', e.passed.dangerous);
  if (e.any.length) return explained(e.any);
  return v('confirmed', e.passed.safe);
}

export function notObserved(c: Change, audience: CheckedAudience, why: string): CheckedChange {
  return {
    audience,
    rule: c.rule,
    path: c.path,
    severity: c.severities[audience],
    verdict: 'not observed',
    detail: why,
  };
}
