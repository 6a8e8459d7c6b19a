// Checks that need the whole spec: names unique, every referenced type and gap exists, lists name
// their item element, decimals have a scale, inheritance is sound.
import { didYouMean, formatPos, type Diagnostic, type SourcePos } from './diagnostics.js';
import { primitiveNames, type SpecField, type SpecType } from './format.js';
import type { RawSpec } from './load.js';
import { checkConformanceSpec } from './conformance-check.js';

export function crossCheck(spec: RawSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (pos: SourcePos, message: string, hint?: string) =>
    out.push({ pos, message, hint });

  const gapIds = uniqueNames(
    spec.gaps.gaps.map((g) => ({ name: g.id, pos: g.pos })),
    'gap',
    report,
  );
  const types = new Map<string, SpecType>();
  for (const f of spec.typeFiles) {
    for (const t of f.types) {
      const first = types.get(t.name);
      if (first)
        report(t.pos, `duplicate type "${t.name}"`, `first defined at ${formatPos(first.pos)}`);
      else types.set(t.name, t);
    }
  }
  const knownTypes = [...primitiveNames, 'list', ...types.keys()];
  const checkGap = (id: string | undefined, pos: SourcePos) => {
    if (id !== undefined && !gapIds.has(id))
      report(pos, `unknown gap "${id}"`, didYouMean(id, gapIds));
  };
  const checkTypeRef = (name: string, pos: SourcePos, allowList: boolean) => {
    if (!allowList && name === 'list') report(pos, 'a list item cannot itself be a list');
    else if (!knownTypes.includes(name))
      report(pos, `unknown type "${name}"`, didYouMean(name, knownTypes));
    else if (types.get(name)?.abstract)
      report(pos, `type "${name}" is abstract and cannot be used as a field or result`);
  };

  const checkField = (f: SpecField) => {
    checkTypeRef(f.type, f.pos, true);
    checkGap(f.gap, f.pos);
    if (f.type === 'decimal' && f.scale === undefined)
      report(
        f.pos,
        `decimal field "${f.name}" has no scale`,
        'add scale: 2 for money, 5 for rates',
      );
    if (f.type !== 'decimal' && f.scale !== undefined)
      report(f.pos, `field "${f.name}" has a scale but is not a decimal`);
    if (f.type === 'list') {
      if (f.of === undefined)
        report(f.pos, `list field "${f.name}" does not say what it holds`, 'add of: <type>');
      else checkTypeRef(f.of, f.pos, false);
      if (f.item === undefined)
        report(
          f.pos,
          `list field "${f.name}" does not name its item element`,
          `add item: ${f.of && primitiveNames.includes(f.of) ? f.of : (f.of ?? '<element>')}`,
        );
    } else if (f.of !== undefined || f.item !== undefined) {
      report(f.pos, `field "${f.name}" has of/item but is not a list`);
    }
  };

  for (const t of types.values()) {
    checkGap(t.gap, t.pos);
    const own = [...(t.fields ?? [])];
    uniqueNames(
      own.map((f) => ({ name: f.name, pos: f.pos })),
      'field',
      report,
      ` in type "${t.name}"`,
    );
    own.forEach(checkField);
    (t.overrides ?? []).forEach(checkField);
    if (t.extends !== undefined) {
      if (!types.has(t.extends))
        report(t.pos, `unknown base type "${t.extends}"`, didYouMean(t.extends, types.keys()));
      else if (inheritanceCycle(t, types))
        report(t.pos, `type "${t.name}" extends itself through "${t.extends}"`);
      else {
        const inherited = new Set(inheritedFields(types.get(t.extends)!, types).map((f) => f.name));
        for (const f of own)
          if (inherited.has(f.name))
            report(
              f.pos,
              `field "${f.name}" is already inherited from "${t.extends}"`,
              'use overrides to change it',
            );
        for (const f of t.overrides ?? [])
          if (!inherited.has(f.name))
            report(
              f.pos,
              `override "${f.name}" names no inherited field of "${t.extends}"`,
              didYouMean(f.name, inherited),
            );
      }
    } else if (t.overrides?.length) {
      report(t.pos, `type "${t.name}" has overrides but extends nothing`);
    }
  }

  uniqueNames(
    spec.operations.operations.map((o) => ({ name: o.name, pos: o.pos })),
    'operation',
    report,
  );
  for (const op of spec.operations.operations) {
    uniqueNames(
      op.parameters.map((p) => ({ name: p.name, pos: p.pos })),
      'parameter',
      report,
      ` in operation "${op.name}"`,
    );
    for (const p of op.parameters) {
      if (!primitiveNames.includes(p.type))
        report(
          p.pos,
          `parameter "${p.name}" must have a primitive type, got "${p.type}"`,
          didYouMean(p.type, primitiveNames),
        );
    }
    const r = op.result;
    if (r.kind === 'type') {
      if (r.type === undefined) report(r.pos, `result of "${op.name}" has kind type but no type`);
      else checkTypeRef(r.type, r.pos, false);
    }
    if (r.kind === 'list') {
      if (r.of === undefined || r.item === undefined)
        report(r.pos, `list result of "${op.name}" needs of and item`);
      else checkTypeRef(r.of, r.pos, false);
    }
    if (r.kind !== 'none' && op.http.root === undefined)
      report(op.http.pos, `operation "${op.name}" has a result but no HTTP root element`);
    checkGap(op.http.gap, op.http.pos);
    if (!op.http.shown && op.http.gap === undefined)
      report(op.http.pos, `operation "${op.name}" has http.shown false but names no gap`);
    if (r.kind === 'none' && op.http.root !== undefined)
      report(op.http.pos, `operation "${op.name}" has no result but names an HTTP root element`);
    if (op.paging) {
      if (r.kind !== 'list') report(op.paging.pos, `paging of "${op.name}" needs a list result`);
      for (const name of [op.paging.skip, op.paging.size].filter((n) => n !== undefined)) {
        if (!op.parameters.some((p) => p.name === name && p.type === 'int'))
          report(
            op.paging.pos,
            `paging of "${op.name}" names "${name}", which is not an int parameter`,
            didYouMean(
              name,
              op.parameters.map((p) => p.name),
            ),
          );
      }
    }
  }
  if (out.length === 0) checkConformanceSpec(spec, types, report);
  return out;
}

function uniqueNames(
  items: { name: string; pos: SourcePos }[],
  what: string,
  report: (pos: SourcePos, message: string, hint?: string) => void,
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
