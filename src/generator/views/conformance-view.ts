// View of generated/src/conformance.ts: what a conforming server must put on the wire, per type
// and per operation, as data the conformance checker of @evgen/runtime walks.
import type { IrField, IrSpec, IrValue } from '../ir/model.js';
import { header } from './ts-names.js';

const value = (v: IrValue) =>
  v.kind === 'scalar'
    ? { kind: v.scalar, ...(v.scalar === 'decimal' ? { scale: v.scale } : {}) }
    : { kind: 'complex', type: v.typeName };

function field(f: IrField) {
  return JSON.stringify({
    name: f.xmlName,
    value: value(f.value),
    nullable: f.nullable,
    optional: f.optional,
    item: f.list?.itemElement ?? null,
  });
}

export function conformanceView(ir: IrSpec) {
  return {
    header: header('spec/ (types, operations, service)'),
    types: ir.types
      .filter((t) => !t.abstract)
      .map((t) => ({ name: t.name, fields: t.fields.map(field) })),
    operations: ir.operations.map((op) =>
      JSON.stringify({
        name: op.name,
        params: op.parameters.map((p) => ({ name: p.name, kind: p.scalar })),
        result:
          op.result.kind === 'none'
            ? null
            : op.result.kind === 'type'
              ? { value: { kind: 'complex', type: op.result.typeName }, item: null }
              : { value: value(op.result.value), item: op.result.itemElement },
        responseElement: op.responseElement,
        resultElement: op.resultElement,
        httpRoot: op.httpRoot,
        mutating: op.mutating,
      }),
    ),
    contentTypes: JSON.stringify(
      Object.fromEntries(ir.bindings.map((b) => [b.id, b.responseContentType])),
    ),
  };
}
