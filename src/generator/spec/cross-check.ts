// Checks that need the whole spec: names unique and usable, every referenced type, gap, scale and
// operation exists, lists name their item element, inheritance is sound. Runs on whatever loaded,
// so format and cross-reference errors are reported together; a name declared in a file whose
// format is wrong counts as known (that file has its own error).
import {
  uniqueNames,
  uniqueWireNames,
  type CheckCtx,
  type Declared,
  type Report,
} from './check-context.js';
import { checkOperations } from './cross-check-operations.js';
import { checkService } from './cross-check-service.js';
import { checkPlainItem, checkScale, checkTypeRef } from './cross-check-values.js';
import { didYouMean, formatPos, type Diagnostic, type SourcePos } from './diagnostics.js';
import { checkConformanceSpec } from './conformance-check.js';
import { isPrimitive, type SpecField, type SpecType } from './format.js';
import type { PartialSpec, RawSpec } from './load.js';
import { TS_TYPE_RESERVED } from './names.js';

export type { Declared } from './check-context.js';

/** Type names the generated code itself uses next to the spec's types. */
const GENERATED_TYPE_NAMES = ['OperationName', 'OperationTypes', 'Decimal', 'LocalDateTime'];

export function crossCheck(spec: PartialSpec, declared: Declared): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report: Report = (pos, message, hint) => out.push({ pos, message, hint });
  const gapIds = uniqueNames(
    (spec.gaps?.gaps ?? []).map((g) => ({ name: g.id, pos: g.pos })),
    'gap',
    report,
  );
  const checkGap = (id: string | undefined, pos: SourcePos) => {
    if (id !== undefined && !gapIds.has(id) && !declared.gaps.has(id))
      report(pos, `unknown gap "${id}"`, didYouMean(id, gapIds));
  };
  const ctx: CheckCtx = { spec, declared, report, checkGap, types: new Map() };
  checkService(ctx);
  checkTypes(ctx);
  checkOperations(ctx);
  // The conformance tables walk operations and types: only a whole, otherwise sound spec.
  if (out.length === 0 && isWhole(spec)) checkConformanceSpec(spec, ctx.types, report);
  return out;
}

const isWhole = (spec: PartialSpec): spec is RawSpec =>
  Object.values(spec).every((part) => part !== undefined);

function checkTypes(c: CheckCtx): void {
  const { spec, types, report } = c;
  for (const f of spec.typeFiles)
    for (const t of f.types) {
      const first = types.get(t.name);
      if (first)
        report(t.pos, `duplicate type "${t.name}"`, `first defined at ${formatPos(first.pos)}`);
      else types.set(t.name, t);
      if (TS_TYPE_RESERVED.has(t.name) || GENERATED_TYPE_NAMES.includes(t.name))
        report(t.pos, `type name "${t.name}" is reserved in the generated TypeScript`);
    }
  const checkField = (f: SpecField) => {
    checkTypeRef(c, f.type, f.pos, true);
    c.checkGap(f.gap, f.pos);
    checkScale(c, `field "${f.name}"`, f.type, f.scale, f.pos);
    if (f.alwaysNil && (!f.nullable || f.gap === undefined))
      report(
        f.pos,
        `field "${f.name}" is alwaysNil but not nullable with a gap deciding it`,
        'add nullable: true and gap: <id>',
      );
    if (f.type === 'list') {
      if (f.of === undefined)
        report(f.pos, `list field "${f.name}" does not say what it holds`, 'add of: <type>');
      else checkTypeRef(c, f.of, f.pos, false);
      if (f.item === undefined)
        report(
          f.pos,
          `list field "${f.name}" does not name its item element`,
          `add item: ${f.of && isPrimitive(f.of) ? f.of : (f.of ?? '<element>')}`,
        );
      else if (f.of !== undefined) checkPlainItem(c, f.of, f.item, f.pos);
    } else if (f.of !== undefined || f.item !== undefined) {
      report(f.pos, `field "${f.name}" has of/item but is not a list`);
    }
  };

  for (const t of types.values()) {
    c.checkGap(t.gap, t.pos);
    const own = [...(t.fields ?? [])];
    uniqueNames(
      own.map((f) => ({ name: f.name, pos: f.pos })),
      'field',
      report,
      ` in type "${t.name}"`,
    );
    own.forEach(checkField);
    (t.overrides ?? []).forEach(checkField);
    if (t.opaque && (own.length > 0 || t.extends !== undefined || t.gap === undefined))
      report(t.pos, `type "${t.name}" is opaque but has fields or no gap deciding it`);
    if (t.extends !== undefined) checkBase(c, t, own);
    else if (t.overrides?.length)
      report(t.pos, `type "${t.name}" has overrides but extends nothing`);
    if (t.extends === undefined || (types.has(t.extends) && !inheritanceCycle(t, types)))
      uniqueWireNames(inheritedFields(t, types), report, ` in type "${t.name}"`);
  }
  checkTypeWireNames(c);
}

/** Complex types are named once in the WSDL, beside the authentication header's type. */
function checkTypeWireNames(c: CheckCtx): void {
  const header = c.spec.authentication?.authentication.header;
  const named = [...c.types.values()].filter((t) => !t.abstract);
  uniqueWireNames(named, c.report, ' of a type');
  for (const t of named)
    if (header && (t.xmlName ?? t.name) === header.element)
      c.report(t.pos, `type "${t.name}" has the WSDL name of the ${header.element} header`);
}

function checkBase(c: CheckCtx, t: SpecType, own: SpecField[]): void {
  const { types, report } = c;
  const base = t.extends!;
  if (!types.has(base)) {
    if (!c.declared.types.has(base))
      report(t.pos, `unknown base type "${base}"`, didYouMean(base, types.keys()));
  } else if (inheritanceCycle(t, types)) {
    report(t.pos, `type "${t.name}" extends itself through "${base}"`);
  } else {
    const inherited = new Set(inheritedFields(types.get(base)!, types).map((f) => f.name));
    for (const f of own)
      if (inherited.has(f.name))
        report(
          f.pos,
          `field "${f.name}" is already inherited from "${base}"`,
          'use overrides to change it',
        );
    for (const f of t.overrides ?? [])
      if (!inherited.has(f.name))
        report(
          f.pos,
          `override "${f.name}" names no inherited field of "${base}"`,
          didYouMean(f.name, inherited),
        );
  }
}

function inheritanceCycle(t: SpecType, types: Map<string, SpecType>): boolean {
  const seen = new Set<string>([t.name]);
  for (let cur = t.extends; cur !== undefined; cur = types.get(cur)?.extends) {
    if (seen.has(cur)) return true;
    seen.add(cur);
  }
  return false;
}

/** All fields of a type in wire order: the base's (with overrides applied), then its own. */
export function inheritedFields(t: SpecType, types: ReadonlyMap<string, SpecType>): SpecField[] {
  const base =
    t.extends !== undefined && types.has(t.extends)
      ? inheritedFields(types.get(t.extends)!, types)
      : [];
  const overrides = new Map((t.overrides ?? []).map((f) => [f.name, f]));
  return [...base.map((f) => overrides.get(f.name) ?? f), ...(t.fields ?? [])];
}
