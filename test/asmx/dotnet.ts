// What the generated client reads from an ASMX service for a .NET object of which only some
// properties were set: the others hold .NET's defaults, which XmlSerializer writes for value types
// (0, false, 0m, DateTime.MinValue) and nil for nillable ones, and leaves out for reference types
// (and for optional values whose *Specified is false). The tier's expected values are written as
// what Fixed.cs sets, and completed here from the spec.
import type { IrField, IrSpec } from '../../src/generator/ir/model.js';

type Value = Record<string, unknown>;

function defaultOf(f: IrField): unknown {
  if (f.nullable) return null;
  if (f.optional || f.omittedWhenNull || f.value.kind !== 'scalar') return undefined;
  switch (f.value.scalar) {
    case 'int':
      return 0;
    case 'boolean':
      return false;
    case 'decimal':
      return (0).toFixed(f.value.scale ?? 0);
    case 'dateTime':
      return '0001-01-01T00:00:00';
    default:
      return undefined;
  }
}

/** `given` (the properties set) of a value of `typeName`, with every other one as .NET sends it. */
export function received(ir: IrSpec, typeName: string, given: Value): Value {
  const type = ir.types.find((t) => t.name === typeName);
  if (!type) throw new Error(`no type ${typeName}`);
  const unknown = Object.keys(given).filter((k) => !type.fields.some((f) => f.name === k));
  if (unknown.length) throw new Error(`${typeName} has no ${unknown.join(', ')}`);
  const out: Value = {};
  for (const f of type.fields) {
    const set = given[f.name];
    const inner = f.value.kind === 'complex' ? f.value.typeName : null;
    const complete = (v: unknown) => (inner === null ? v : received(ir, inner, v as Value));
    const value =
      set === undefined || set === null
        ? (set ?? defaultOf(f))
        : f.list
          ? (set as unknown[]).map(complete)
          : complete(set);
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}
