// Facts about values that several comparisons need: which scalar's lexical values parse as which,
// whether two complex types have the same shape, and which operations reach a type.
import type { IrField, IrSpec, IrType, IrValue, ScalarKind } from '../../generator/ir/model.js';

/** Whether every lexical value of `from` (at `fromScale`) parses as `to` (at `toScale`). */
export function parsesAs(
  from: ScalarKind,
  fromScale: number | null,
  to: ScalarKind,
  toScale: number | null,
): boolean {
  if (to === 'string') return true;
  if (to === 'decimal')
    return from === 'int' || (from === 'decimal' && (fromScale ?? 0) <= (toScale ?? 0));
  return from === to;
}

export function typeOf(ir: IrSpec, name: string): IrType | undefined {
  return ir.types.find((t) => t.name === name);
}

/** Same XML instances: same fields in the same order with the same values, recursively. */
export function sameShape(a: IrSpec, aType: string, b: IrSpec, bType: string): boolean {
  const seen = new Set<string>();
  const types = (x: string, y: string): boolean => {
    const key = `${x}\u0000${y}`;
    if (seen.has(key)) return true; // assumed equal while being compared (recursive types)
    seen.add(key);
    const tx = typeOf(a, x);
    const ty = typeOf(b, y);
    if (!tx || !ty || tx.fields.length !== ty.fields.length) return false;
    return tx.fields.every((f, i) => fields(f, ty.fields[i]!));
  };
  const values = (x: IrValue, y: IrValue): boolean =>
    x.kind === 'scalar'
      ? y.kind === 'scalar' && x.scalar === y.scalar && x.scale === y.scale
      : y.kind === 'complex' && types(x.typeName, y.typeName);
  const fields = (x: IrField, y: IrField): boolean =>
    x.xmlName === y.xmlName &&
    x.nullable === y.nullable &&
    x.optional === y.optional &&
    (x.list?.itemElement ?? null) === (y.list?.itemElement ?? null) &&
    values(x.value, y.value);
  return types(aType, bType);
}

/** For each complex type, the operations whose results reach it. */
export function operationsReaching(ir: IrSpec): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const visit = (typeName: string, op: string) => {
    const ops = out.get(typeName) ?? new Set<string>();
    if (ops.has(op)) return;
    ops.add(op);
    out.set(typeName, ops);
    for (const f of typeOf(ir, typeName)?.fields ?? [])
      if (f.value.kind === 'complex') visit(f.value.typeName, op);
  };
  for (const o of ir.operations) {
    const r = o.result;
    if (r.kind === 'type') visit(r.typeName, o.name);
    else if (r.kind === 'list' && r.value.kind === 'complex') visit(r.value.typeName, o.name);
  }
  return out;
}

export function describeValue(v: IrValue, list: boolean): string {
  const one =
    v.kind === 'scalar' ? (v.scale !== null ? `${v.scalar}(${v.scale})` : v.scalar) : v.typeName;
  return list ? `list of ${one}` : one;
}
