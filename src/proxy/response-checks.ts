// The checks of an answer, by the conformance checker of @evgen/runtime: an operation's answer as
// `evgen conformance` checks its own (same check names, paths and messages), a refusal in the
// form the fault table gives its code (the code the request's refusal calls for, when the proxy
// could tell why it is refused) with no stack trace in its text, and the WSDL. An answer of 200 to
// a request a faithful server refuses fails the conformance check that names that refusal.
import type { AnswerChecker, ConformanceResult, RawAnswer, WireSpec } from '@evgen/runtime';
import { resultFindings, type Finding } from './finding.js';
import type { RequestVerdict } from './request-checks.js';
import type { Route } from './routes.js';

export function checkAnswer(
  checker: AnswerChecker,
  wire: WireSpec,
  route: Route,
  verdict: RequestVerdict,
  raw: RawAnswer,
): Finding[] {
  if (route.kind === 'wsdl') {
    if (raw.status !== 200) return [];
    const r = checker.wsdl(verdict.ns, raw);
    return r ? resultFindings(r, { direction: 'response', operation: '-', binding: 'wsdl' }) : [];
  }
  if (route.kind !== 'soap' && route.kind !== 'http') return [];
  const { binding } = route;
  const at = { direction: 'response', operation: verdict.operation, binding: binding.id } as const;
  const results: (ConformanceResult | undefined)[] = [];
  const known = checker.operationKnown(verdict.operation);
  if (raw.status === 200) {
    if (known) results.push(...checker.response(verdict.operation, binding.id, verdict.ns, raw));
    const r = verdict.refusal;
    if (r && checker.runs(r.family)) {
      const code = wire.faults.raisedFor[r.role];
      return [
        ...results.flatMap((x) => (x ? resultFindings(x, at) : [])),
        {
          ...at,
          check: r.check,
          ...checker.source(r.family),
          path: '',
          expected: `a refusal (${code})`,
          found: 'HTTP 200',
          message: 'accepted: HTTP 200',
        },
      ];
    }
  } else {
    const code = verdict.refusal ? wire.faults.raisedFor[verdict.refusal.role] : null;
    results.push(
      checker.faultForm(verdict.operation, binding.id, raw, code),
      checker.faultText(verdict.operation, binding.id, raw),
    );
  }
  return results.flatMap((x) => (x ? resultFindings(x, at) : []));
}
