// What every cross-check gets: the spec as far as it loaded, the names declared anywhere, and
// where to report.
import { formatPos, type SourcePos } from './diagnostics.js';
import type { SpecType } from './format.js';
import type { PartialSpec } from './load.js';

export interface Declared {
  readonly types: Set<string>;
  readonly operations: Set<string>;
  readonly gaps: Set<string>;
}

export type Report = (pos: SourcePos, message: string, hint?: string) => void;

export interface CheckCtx {
  readonly spec: PartialSpec;
  readonly declared: Declared;
  readonly report: Report;
  readonly checkGap: (id: string | undefined, pos: SourcePos) => void;
  /** Filled by checkTypes. */
  readonly types: Map<string, SpecType>;
}

export function uniqueNames(
  items: { name: string; pos: SourcePos }[],
  what: string,
  report: Report,
  where = '',
): Set<string> {
  const seen = new Map<string, SourcePos>();
  for (const { name, pos } of items) {
    const first = seen.get(name);
    if (first)
      report(pos, `duplicate ${what} "${name}"${where}`, `first defined at ${formatPos(first)}`);
    else seen.set(name, pos);
  }
  return new Set(seen.keys());
}

/**
 * Wire names (xmlName, or else the name) must be unique too; a clash of two plain names is the
 * name check's to report, so only clashes involving an xmlName are reported here.
 */
export function uniqueWireNames(
  items: { name: string; xmlName?: string | undefined; pos: SourcePos }[],
  report: Report,
  where: string,
): void {
  const seen = new Map<string, { pos: SourcePos; explicit: boolean }>();
  for (const i of items) {
    const wire = i.xmlName ?? i.name;
    const first = seen.get(wire);
    if (!first) seen.set(wire, { pos: i.pos, explicit: i.xmlName !== undefined });
    else if (first.explicit || i.xmlName !== undefined)
      report(
        i.pos,
        `duplicate wire name "${wire}"${where}`,
        `first used at ${formatPos(first.pos)}`,
      );
  }
}
