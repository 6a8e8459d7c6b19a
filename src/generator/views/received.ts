// The received form of each type: what a client reads, where a server may have left out a value it
// does not have (IrField.omittedWhenNull, gap of conventions.omittedWhenNull). The written form
// (the type's own name) is what handlers return and encoders take: every field required.
import type { IrField, IrOperation, IrSpec, IrType } from '../ir/model.js';

export const receivedName = (typeName: string) => `${typeName}Received`;
export const receivedResultName = (op: IrOperation) => `${op.name}Received`;

/**
 * Types whose received form differs from the written one: a field may be left out, or holds a
 * type that differs. Types without such a field are received as they are written.
 */
export function typesDifferingWhenReceived(ir: IrSpec): ReadonlySet<string> {
  const byName = new Map(ir.types.map((t) => [t.name, t]));
  const memo = new Map<string, boolean>();
  const differs = (name: string): boolean => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    memo.set(name, false); // a type reaching itself adds nothing
    const t = byName.get(name);
    const d = t !== undefined && t.fields.some((f) => changesWhenReceived(f, differs));
    memo.set(name, d);
    return d;
  };
  return new Set(ir.types.map((t) => t.name).filter(differs));
}

/** A field the received form declares again: it may be absent, or its type is another one. */
export function changesWhenReceived(f: IrField, differs: (typeName: string) => boolean): boolean {
  return f.omittedWhenNull || (f.value.kind === 'complex' && differs(f.value.typeName));
}

/** The fields `t`'s received form declares again, in wire order. */
export function receivedFields(t: IrType, differing: ReadonlySet<string>): IrField[] {
  return t.fields.filter((f) => changesWhenReceived(f, (n) => differing.has(n)));
}
