// View of generated/src/conformance.ts: what a conforming server must put on the wire, per type
// and per operation, how to find values to call operations with, and the level and source of each
// family of checks, as data the conformance checker of @evgen/runtime walks.
import type { IrConformanceSource, IrField, IrSpec, IrValue } from '../ir/model.js';
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
    gap: f.gap,
    ...(f.alwaysNil ? { alwaysNil: true } : {}),
    ...(f.omittedWhenNull ? { omittedWhenNull: true } : {}),
  });
}

const source = (s: IrConformanceSource) => ({
  operation: s.operation,
  items: s.items,
  across: s.across,
  yields: s.yields,
});

export function conformanceView(ir: IrSpec) {
  const c = ir.conformance;
  return {
    header: header('spec/ (types, operations, conformance)'),
    types: ir.types
      .filter((t) => !t.abstract)
      .map((t) => ({ name: t.name, fields: t.fields.map(field) })),
    typeGaps: JSON.stringify(
      Object.fromEntries(ir.types.filter((t) => t.gap !== null).map((t) => [t.name, t.gap])),
    ),
    opaqueTypes: JSON.stringify(ir.types.filter((t) => t.opaque).map((t) => t.name)),
    operations: ir.operations.map((op) =>
      JSON.stringify({
        name: op.name,
        params: op.parameters.map((p) => ({ name: p.name, kind: p.scalar })),
        result:
          op.result.kind === 'none'
            ? null
            : {
                value: value(op.result.value),
                item: op.result.kind === 'list' ? op.result.itemElement : null,
                ...(op.resultOmittedWhenNull ? { omittedWhenNull: true } : {}),
              },
        responseElement: op.responseElement,
        resultElement: op.resultElement,
        httpRoot: op.httpRoot,
        httpShapeShown: op.httpShapeShown,
        mutating: op.mutating,
      }),
    ),
    // spec/conformance.yaml names parameters by their wire names; the checker fills the codecs'
    // parameter objects, keyed by TypeScript names.
    values: c.values.map((v) => {
      const params = ir.operations.flatMap((op) => op.parameters);
      const names = params.filter((p) => v.parameters.includes(p.xmlName)).map((p) => p.name);
      return JSON.stringify({ ...v, parameters: [...new Set(names)] });
    }),
    sources: c.sources.map((s) => JSON.stringify(source(s))),
    writes: c.writes.map((w) => JSON.stringify({ ...source(w), then: w.then.map(source) })),
    checks: JSON.stringify(c.checks),
    hostile: JSON.stringify(c.hostile),
  };
}

/** View of generated/src/conformance.test.ts: one env variable per value option, e.g. _EVENT_ID. */
export function conformanceTestView(ir: IrSpec) {
  return {
    header: header('spec/ (operations, service, conformance)'),
    operations: ir.operations.map((o) => o.name),
    options: ir.conformance.values
      .filter((v) => v.option !== null)
      .map((v) => ({
        env: `EVGEN_CONFORMANCE_${v.option!.toUpperCase().replace(/-/g, '_')}`,
        value: v.name,
      })),
  };
}
