// Typed sample values for the help pages: one constant per complex type an operation result
// reaches (declared before the types that hold it), and each operation's parameters and result.
// The runtime writes the samples from these values with the operation's own codecs; the compiler
// checks the values against the generated types.
import type { IrOperation, IrSpec, IrType, IrValue, ScalarKind } from '../ir/model.js';

/** A sample of each scalar as a TypeScript literal; decimals carry their field's scale. */
export function sampleScalar(scalar: ScalarKind, scale: number | null): string {
  switch (scalar) {
    case 'int':
      return '1';
    case 'string':
      return JSON.stringify('string');
    case 'boolean':
      return 'true';
    case 'dateTime':
      return JSON.stringify('2026-01-01T09:00:00');
    case 'decimal':
      return JSON.stringify(scale ? `12.${'5'.padEnd(scale, '0')}` : '12');
  }
}

export const sampleConst = (typeName: string) => `sample${typeName}`;

const sampleValue = (v: IrValue): string =>
  v.kind === 'scalar' ? sampleScalar(v.scalar, v.scale) : sampleConst(v.typeName);

/** Complex types reached from `roots`, each once, in breadth-first order. */
export function reachableTypes(ir: IrSpec, roots: readonly string[]): IrType[] {
  const byName = new Map(ir.types.map((t) => [t.name, t]));
  const seen = new Set<string>();
  const out: IrType[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const t = byName.get(name)!;
    out.push(t);
    for (const f of t.fields) if (f.value.kind === 'complex') queue.push(f.value.typeName);
  }
  return out;
}

/** The complex type a result holds (itself or as list items), if any. */
export function resultTypeOf(op: IrOperation): string | undefined {
  const r = op.result;
  return r.kind !== 'none' && r.value.kind === 'complex' ? r.value.typeName : undefined;
}

/** Sample constants of every type results reach, each declared after the types it holds. */
export function sampleTypes(ir: IrSpec) {
  const roots = ir.operations.map(resultTypeOf).filter((t): t is string => t !== undefined);
  const byName = new Map(ir.types.map((t) => [t.name, t]));
  const ordered: IrType[] = [];
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (name: string) => {
    if (done.has(name)) return;
    if (visiting.has(name)) throw new Error(`type ${name} holds itself: no finite sample`);
    visiting.add(name);
    const t = byName.get(name)!;
    for (const f of t.fields) if (f.value.kind === 'complex') visit(f.value.typeName);
    visiting.delete(name);
    done.add(name);
    ordered.push(t);
  };
  for (const r of roots) visit(r);
  return ordered.map((t) => ({
    const: sampleConst(t.name),
    type: t.name,
    fields: t.fields.map((f) => ({
      name: f.name,
      value: f.list ? `[${sampleValue(f.value)}]` : sampleValue(f.value),
    })),
  }));
}

/** `{ params, result }` of an operation as TypeScript literals. */
export function operationSample(op: IrOperation) {
  const r = op.result;
  return {
    sampleParams: `{ ${op.parameters.map((p) => `${p.name}: ${sampleScalar(p.scalar, null)}`).join(', ')} }`,
    sampleResult:
      r.kind === 'none'
        ? 'undefined'
        : r.kind === 'value'
          ? sampleValue(r.value)
          : `[${sampleValue(r.value)}]`,
  };
}
