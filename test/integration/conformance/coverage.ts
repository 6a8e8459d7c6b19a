// What the coverage meta-test counts: the check names of a report (a binding id normalised out of
// a name only where the check is parameterised by it) and the gap rows the model can produce.
import type { ConformanceModel, ConformanceReport, ConformanceResult } from '@evgen/runtime';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The check names of the results `keep` selects. A name holding a binding id is written with
 * `<binding>` in its place when the report holds it with more than one binding id there (the
 * replay "on <binding>" differs per binding); a name that only mentions a binding keeps it.
 */
export function checkNames(
  report: ConformanceReport,
  keep: (r: ConformanceResult) => boolean,
): Set<string> {
  const ids = new RegExp(`\\b(${report.bindings.map(escape).join('|')})\\b`, 'g');
  const norm = (check: string) => check.replace(ids, '<binding>');
  const variants = new Map<string, Set<string>>();
  for (const r of report.results)
    variants.set(norm(r.check), (variants.get(norm(r.check)) ?? new Set()).add(r.check));
  return new Set(
    report.results
      .filter(keep)
      .map((r) => ((variants.get(norm(r.check))?.size ?? 0) > 1 ? norm(r.check) : r.check)),
  );
}

/**
 * `response: <gap>` for every gap the model lets a response row report: the gaps of the types and
 * fields reachable from some operation's result, note A where an HTTP shape is not shown, and the
 * nil attribute where a nullable field is reachable.
 */
export function modelGapChecks(model: ConformanceModel): string[] {
  const gaps = new Set<string>();
  const seen = new Set<string>();
  let nullable = false;
  const visit = (type: string) => {
    if (seen.has(type)) return;
    seen.add(type);
    if (model.typeGaps[type]) gaps.add(model.typeGaps[type]);
    for (const f of model.types[type] ?? []) {
      if (f.gap) gaps.add(f.gap);
      nullable ||= f.nullable;
      if (f.value.kind === 'complex') visit(f.value.type);
    }
  };
  for (const op of model.operations) {
    if (op.result?.value.kind === 'complex') visit(op.result.value.type);
    if (op.result && !op.httpShapeShown) gaps.add(model.checks.httpShapes.source);
  }
  if (nullable) gaps.add(model.checks.nilAttribute.source);
  return [...gaps].sort().map((g) => `response: ${g}`);
}
