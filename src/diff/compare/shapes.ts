// Facts about values that several comparisons need: which scalar's lexical values parse as which,
// whether two complex types have the same shape, and which operations reach a type.
import type { IrField, IrSpec, IrType, IrValue, ScalarKind } from '../../generator/ir/model.js';
import type { RuleId } from '../rules.js';

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

/** What two versions pair: the same name, else (of the rest) the same name on the wire. */
export interface Pairing<T> {
  readonly pairs: readonly (readonly [T, T])[];
  readonly removed: readonly T[];
  readonly added: readonly T[];
}

export function pairByNames<T extends { readonly name: string; readonly xmlName: string }>(
  base: readonly T[],
  head: readonly T[],
): Pairing<T> {
  const byName = new Map(head.map((h) => [h.name, h]));
  const pairs: [T, T][] = [];
  const left: T[] = [];
  for (const b of base) {
    const h = byName.get(b.name);
    if (h) pairs.push([b, h]);
    else left.push(b);
  }
  const taken = new Set(pairs.map(([, h]) => h));
  const byWire = new Map(
    head
      .filter((h) => !taken.has(h) && !base.some((b) => b.name === h.name))
      .map((h) => [h.xmlName, h]),
  );
  const removed: T[] = [];
  for (const b of left) {
    const h = byWire.get(b.xmlName);
    if (h) {
      pairs.push([b, h]);
      taken.add(h);
      byWire.delete(b.xmlName);
    } else removed.push(b);
  }
  return { pairs, removed, added: head.filter((h) => !taken.has(h)) };
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

/**
 * How a value the server sends changed, as old clients meet it (fields and results alike): the
 * same; a complex type of the same shape under another name; a scalar whose every new value old
 * clients still parse; a decimal with more or fewer places; or anything else.
 */
export type ValueChange = 'same' | 'renamed' | 'narrowed' | 'scale-up' | 'scale-down' | 'other';

/**
 * `continues(base, head)`: whether head type `head` is base type `base` (the same name, or a
 * TypeScript rename keeping its WSDL name).
 */
export function valueChange(
  a: IrSpec,
  bv: IrValue,
  b: IrSpec,
  hv: IrValue,
  continues: (base: string, head: string) => boolean = (x, y) => x === y,
): ValueChange {
  if (bv.kind === 'complex' && hv.kind === 'complex')
    return continues(bv.typeName, hv.typeName)
      ? 'same'
      : sameShape(a, bv.typeName, b, hv.typeName)
        ? 'renamed'
        : 'other';
  if (bv.kind !== 'scalar' || hv.kind !== 'scalar') return 'other';
  if (bv.scalar === hv.scalar)
    return bv.scale === hv.scale
      ? 'same'
      : (hv.scale ?? 0) > (bv.scale ?? 0)
        ? 'scale-up'
        : 'scale-down';
  return parsesAs(hv.scalar, hv.scale, bv.scalar, bv.scale) ? 'narrowed' : 'other';
}

/** The rule a value change falls under for a field and for a result, and what follows from it. */
export const VALUE_CHANGE_RULES: Readonly<
  Record<
    Exclude<ValueChange, 'same'>,
    { readonly field: RuleId; readonly result: RuleId; readonly consequence: string }
  >
> = {
  renamed: {
    field: 'FIELD_TYPE_RENAMED',
    result: 'RESULT_TYPE_RENAMED',
    consequence: ' of the same shape',
  },
  narrowed: {
    field: 'FIELD_TYPE_NARROWED',
    result: 'RESULT_TYPE_NARROWED',
    consequence: ': old clients still read every value; the TypeScript type changes',
  },
  'scale-up': {
    field: 'FIELD_SCALE_INCREASED',
    result: 'RESULT_SCALE_INCREASED',
    consequence: ': old clients refuse the extra decimal places',
  },
  'scale-down': {
    field: 'FIELD_SCALE_DECREASED',
    result: 'RESULT_SCALE_DECREASED',
    consequence: ': servers returning more decimal places fail',
  },
  other: {
    field: 'FIELD_NO_CHANGE_TYPE',
    result: 'RESULT_NO_CHANGE_TYPE',
    consequence: ': old clients cannot read it',
  },
};

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
    if (r.kind !== 'none' && r.value.kind === 'complex') visit(r.value.typeName, o.name);
  }
  return out;
}

export function describeValue(v: IrValue, list: boolean): string {
  const one =
    v.kind === 'scalar' ? (v.scale !== null ? `${v.scalar}(${v.scale})` : v.scalar) : v.typeName;
  return list ? `list of ${one}` : one;
}
