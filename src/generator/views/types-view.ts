// View of generated/src/types.ts: one interface per complex type, and the parameter and result
// types of every operation.
import type { IrSpec } from '../ir/model.js';
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
} from './ts-names.js';

export function typesView(ir: IrSpec) {
  return {
    header: header('spec/types/*.yaml and spec/operations.yaml'),
    types: ir.types.map((t) => ({
      name: t.name,
      docs: docLines([
        ...t.docs,
        t.abstract ? 'Groups fields shared by other types; not an element on the wire.' : undefined,
        t.wireOrderKnown
          ? undefined
          : 'The document groups these fields by type: their wire order is unknown (decoders accept any order).',
        provenanceLine(t.provenance),
      ]),
      fields: t.fields.map((f) => ({
        name: f.name,
        optionalMark: f.optional ? '?' : '',
        tsType: tsFieldType(f),
        docs: docLines([...f.docs, valueNote(f.value), provenanceLine(f.provenance)]),
      })),
    })),
    operations: ir.operations.map((op) => ({
      name: op.name,
      paramsType: paramsTypeName(op),
      resultType: resultTypeName(op),
      tsResult: tsResultType(op),
      hasParams: op.parameters.length > 0,
      docs: docLines([...op.docs, provenanceLine(op.provenance)]),
      params: op.parameters.map((p) => ({
        name: p.name,
        tsType: tsParamType(p),
        docs: docLines([...p.docs, provenanceLine(p.provenance)]),
      })),
    })),
    operationNames: ir.operations.map((op) => op.name),
  };
}
