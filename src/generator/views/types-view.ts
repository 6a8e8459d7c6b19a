// View of generated/src/types.ts: one interface per complex type, and the parameter and result
// types of every operation.
import type { IrOperation, IrSpec } from '../ir/model.js';
import { ImportSet } from './imports.js';
import { operationDocs } from './service-view.js';
import {
  docLines,
  header,
  paramsTypeName,
  provenanceLine,
  resultTypeName,
  tsFieldType,
  tsParamType,
  tsResultType,
  valueNote,
  type TypeScope,
} from './ts-names.js';

function resultDocs(op: IrOperation): string[] {
  return docLines([
    `Result of ${op.name}: ${op.resultText}.`,
    op.httpRoot === null
      ? undefined
      : op.httpShapeShown
        ? `HTTP GET/POST: the document root is ${op.httpRoot}.`
        : `HTTP GET/POST: the document root is ${op.httpRoot}; the document does not show this shape (gap ${op.httpShapeGap ?? 'none named'}).`,
  ]);
}

export function typesView(ir: IrSpec) {
  const runtime = new ImportSet();
  const scope: TypeScope = { runtime, complex: (n) => n };
  const scales = ir.primitives.flatMap((p) => p.scales);
  const scaleName = (scale: number) => scales.find((s) => s.value === scale)?.name;
  const types = ir.types.map((t) => ({
    name: t.name,
    docs: docLines([
      ...t.docs,
      `Document section: ${t.section}.`,
      t.gap ? `Not shown in the document; decision: gap ${t.gap} in spec/gaps.yaml.` : undefined,
      t.abstract ? 'Groups fields shared by other types; not an element on the wire.' : undefined,
      t.wireOrderKnown
        ? undefined
        : 'The document groups these fields by type: their wire order is unknown (decoders accept any order).',
      provenanceLine(t.provenance),
    ]),
    fields: t.fields.map((f) => ({
      name: f.name,
      optionalMark: f.optional ? '?' : '',
      tsType: tsFieldType(f, scope),
      docs: docLines([...f.docs, valueNote(f.value, scaleName), provenanceLine(f.provenance)]),
    })),
  }));
  const operations = ir.operations.map((op) => ({
    name: op.name,
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    tsResult: tsResultType(op, scope),
    hasParams: op.parameters.length > 0,
    docs: operationDocs(op),
    resultDocs: resultDocs(op),
    params: op.parameters.map((p) => ({
      name: p.name,
      tsType: tsParamType(p, scope),
      docs: docLines([
        ...p.docs,
        valueNote({ kind: 'scalar', scalar: p.scalar, scale: p.scale }, scaleName),
        provenanceLine(p.provenance),
      ]),
    })),
  }));
  return {
    header: header('spec/types/*.yaml, spec/operations.yaml and spec/primitives.yaml'),
    primitives: docLines(
      ir.primitives.map(
        (p) =>
          `${p.name} (xsd:${p.xsd}): ${p.docs.join(' ')} Lexical form: ${p.lexical}.${p.scales.length ? ` Scales: ${p.scales.map((s) => `${s.name} ${s.value}`).join(', ')}.` : ''}`,
      ),
    ),
    runtimeImport: runtime.statement('@evgen/runtime'),
    types,
    operations,
    operationNames: ir.operations.map((op) => op.name),
  };
}
