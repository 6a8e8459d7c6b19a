// View of generated/src/operations.ts: one OperationDef per operation — its SOAP and HTTP request
// codecs and its response codecs — in the document's catalogue order.
import type { IrOperation, IrSpec } from '../ir/model.js';
import { readParam, readResult, writeParam, writeResult } from './codec-exprs.js';
import { fieldCodecView } from './codecs-view.js';
import {
  docLines,
  paramsTypeName,
  provenanceLine,
  resultTypeName,
  tsParamType,
  header,
} from './ts-names.js';

const q = (s: string) => JSON.stringify(s);

function resultCodecs(op: IrOperation) {
  const r = op.result;
  if (r.kind === 'none') {
    return {
      soapResponseWrite: [`out.write(soapOperationElement(${q(op.responseElement)}, ns, ''));`],
      soapResponseDecode: 'return undefined;',
      httpResponseWrite: [],
      httpResponseDecode: 'return undefined;',
    };
  }
  const [value, item] =
    r.kind === 'type'
      ? [{ kind: 'complex', typeName: r.typeName } as const, null]
      : [r.value, r.itemElement];
  const write = writeResult(value, item, `${op.name}Result`);
  return {
    // Written in pieces to an XmlWriter, so a long list never becomes one huge string.
    soapResponseWrite: [
      `out.write(openOperationElement(${q(op.responseElement)}, ns) + '<${op.resultElement}>');`,
      write,
      `out.write('</${op.resultElement}></${op.responseElement}>');`,
    ],
    soapResponseDecode: `return ${readResult(value, item, `requireChild(d, el, ns, ${q(op.resultElement)})`)};`,
    httpResponseWrite: [
      `out.write(httpDocumentStart(${q(op.httpRoot!)}, ns));`,
      write,
      `out.write('</${op.httpRoot!}>');`,
    ],
    httpResponseDecode: `const d = requireRoot(doc, ns, ${q(op.httpRoot!)});\n      return ${readResult(value, item, '0')};`,
  };
}

function operationView(op: IrOperation) {
  const params = op.parameters.map((p) => ({
    name: p.name,
    xmlName: p.xmlName,
    value: { kind: 'scalar', scalar: p.scalar, scale: null } as const,
    list: null,
    nullable: false,
    optional: false,
  }));
  return {
    name: op.name,
    method: op.method,
    mutating: op.mutating,
    hasResult: op.result.kind !== 'none',
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    paramNames: `[${op.parameters.map((p) => q(p.name)).join(', ')}]`,
    docs: docLines([...op.docs, provenanceLine(op.provenance)]),
    fields: params.map((p, i) => fieldCodecView(p, op.name, tsParamType(op.parameters[i]!))),
    httpReads: op.parameters.map((p) => ({ name: p.name, read: readParam(p) })),
    httpWrites: op.parameters.map((p) => ({
      name: p.name,
      text: writeParam(p, `v.${p.name}`, `${op.name}.${p.name}`),
    })),
    ...resultCodecs(op),
  };
}

export function operationsView(ir: IrSpec) {
  const decoders = new Set<string>();
  const encoders = new Set<string>();
  for (const op of ir.operations) {
    const r = op.result;
    const t =
      r.kind === 'type'
        ? r.typeName
        : r.kind === 'list' && r.value.kind === 'complex'
          ? r.value.typeName
          : undefined;
    if (t) [decoders.add(`decode${t}`), encoders.add(`encode${t}`)];
  }
  return {
    header: header('spec/operations.yaml'),
    codecImports: [...decoders, ...encoders].sort(),
    operations: ir.operations.map(operationView),
  };
}
