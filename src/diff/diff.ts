// The comparison of two spec versions: every change found, classified by the rule catalogue.
import { DiffContext } from './compare/context.js';
import { compareOperations } from './compare/operations.js';
import { compareService } from './compare/service.js';
import { compareTypes } from './compare/types.js';
import type { SpecVersion } from './input.js';
import { keptAudiences, worst, type Change, type Severity } from './model.js';

const ORDER: Record<Severity, number> = { breaking: 0, dangerous: 1, safe: 2 };

export async function diffSpecs(base: SpecVersion, head: SpecVersion): Promise<Change[]> {
  const ctx = new DiffContext(base, head);
  compareService(ctx);
  compareOperations(ctx);
  compareTypes(ctx);
  const kept = keptAudiences(base, head);
  return (await ctx.changes()).sort(
    (a, b) =>
      ORDER[worst(a.severities, kept)] - ORDER[worst(b.severities, kept)] ||
      cmp(a.location.file, b.location.file) ||
      a.location.line - b.location.line ||
      cmp(a.path, b.path) ||
      cmp(a.rule, b.rule),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
