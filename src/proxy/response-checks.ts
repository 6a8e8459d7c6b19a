// The checks of an answer, by the conformance checker of @evgen/runtime: an operation's answer as
// `evgen conformance` checks its own (same check names, paths and messages), the WSDL, and the
// answer to a request a faithful server refuses as the runner judges the answer to the request it
// sends to provoke that refusal (accepted with 200, refused in another form); a refusal in the form
// the fault table gives its code (the code of the request's refusal, when the proxy could tell why
// it is refused) with no stack trace in its text.
import type { ConformanceResult, WireSpec } from '@evgen/runtime';
import type { AnswerChecker, RawAnswer } from '@evgen/runtime/internal';
import { REFUSALS } from '@evgen/runtime/internal';
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
  const kind = verdict.refusal;
  const code = kind ? wire.faults.raisedFor[REFUSALS[kind].role] : null;
  const results: (ConformanceResult | undefined)[] = [];
  if (raw.status === 200 && checker.operationKnown(verdict.operation))
    results.push(...checker.response(verdict.operation, binding.id, verdict.ns, raw));
  if (raw.status !== 200)
    results.push(
      checker.faultForm(verdict.operation, binding.id, raw, code),
      checker.faultText(verdict.operation, binding.id, raw),
    );
  const findings = results.flatMap((x) => (x ? resultFindings(x, at) : []));
  const refusal = kind && checker.refusal(kind, verdict.operation, binding.id, raw);
  // The runner's words say what was found ("accepted: HTTP 200"); the line also says what was due.
  if (refusal)
    for (const f of resultFindings(refusal, at))
      findings.push({ ...f, expected: f.expected || `a refusal (${code})` });
  return findings;
}
