// View of generated/src/types.ts: one interface per complex type, and the parameter and result
// types of every operation.
import type { IrField, IrOperation, IrSpec, IrType } from '../ir/model.js';
import { ImportSet } from './imports.js';
import {
  receivedFields,
  receivedName,
  receivedResultName,
  typesDifferingWhenReceived,
} from './received.js';
import { operationDocs } from './service-view.js';
import {
  docLines,
  header,
  paramsTypeName,
  provenanceLine,
  resultTypeName,
  tsFieldType,
  tsParamType,
  tsReceivedType,
  tsResultType,
  valueNote,
  type TypeScope,
} from './ts-names.js';

/** Where the element on the wire is named otherwise than the property. */
const wireNote = (x: { name: string; xmlName: string }) =>
  x.xmlName === x.name ? undefined : `On the wire: <${x.xmlName}>.`;

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

const omittedGap = (ir: IrSpec) => ir.service.omittedWhenNull?.gap ?? 'none named';

function receivedResultDocs(ir: IrSpec, op: IrOperation): string[] {
  return docLines([
    `What a client receives from ${op.name}: the result in its received form${op.resultOmittedWhenNull ? `, undefined when the server sends none (gap ${omittedGap(ir)})` : ''}.`,
  ]);
}

export function typesView(ir: IrSpec) {
  const runtime = new ImportSet();
  const scope: TypeScope = { runtime, complex: (n) => n };
  const differing = typesDifferingWhenReceived(ir);
  const receivedScope: TypeScope = {
    runtime,
    complex: (n) => (differing.has(n) ? receivedName(n) : n),
  };
  const scales = ir.primitives.flatMap((p) => p.scales);
  const scaleName = (scale: number) => scales.find((s) => s.value === scale)?.name;
  const fieldDocs = (f: IrField) =>
    docLines([...f.docs, wireNote(f), valueNote(f.value, scaleName), provenanceLine(f.provenance)]);
  const received = (t: IrType) => {
    const fields = receivedFields(t, differing);
    return {
      name: receivedName(t.name),
      docs: docLines([
        fields.length
          ? `${t.name} as a client receives it: a field a server may leave out when it has no value is optional (gap ${omittedGap(ir)}).`
          : `${t.name} as a client receives it: the same as it is sent.`,
      ]),
      base: `Omit<${t.name}, ${fields.map((f) => JSON.stringify(f.name)).join(' | ')}>`,
      fields: fields.map((f) => ({
        name: f.name,
        optionalMark: f.optional || f.omittedWhenNull ? '?' : '',
        tsType: tsFieldType(f, receivedScope),
        docs: f.omittedWhenNull
          ? docLines([
              ...fieldDocs(f).slice(0, -1),
              `Absent when the server has no value (gap ${omittedGap(ir)}).`,
              provenanceLine(f.provenance),
            ])
          : fieldDocs(f),
      })),
    };
  };
  const types = ir.types.map((t) => ({
    name: t.name,
    docs: docLines([
      ...t.docs,
      `Document section: ${t.section}.`,
      t.gap ? `Not shown in the document; decision: gap ${t.gap} in spec/gaps.yaml.` : undefined,
      t.abstract ? 'Groups fields shared by other types; not an element on the wire.' : undefined,
      t.xmlName === t.name ? undefined : `Named ${t.xmlName} in the WSDL.`,
      t.wireOrderKnown
        ? undefined
        : 'The document groups these fields by type: their wire order is unknown (decoders accept any order).',
      provenanceLine(t.provenance),
    ]),
    fields: t.fields.map((f) => ({
      name: f.name,
      optionalMark: f.optional ? '?' : '',
      tsType: tsFieldType(f, scope),
      docs: fieldDocs(f),
    })),
    received: received(t),
  }));
  const operations = ir.operations.map((op) => ({
    name: op.name,
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    tsResult: tsResultType(op, scope),
    receivedType: receivedResultName(op),
    tsReceived: tsReceivedType(op, receivedScope),
    receivedDocs: receivedResultDocs(ir, op),
    hasParams: op.parameters.length > 0,
    docs: operationDocs(op),
    resultDocs: resultDocs(op),
    params: op.parameters.map((p) => ({
      name: p.name,
      tsType: tsParamType(p, scope),
      docs: docLines([
        ...p.docs,
        wireNote(p),
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
