// View of generated/src/operations.ts: one OperationDef per operation — its SOAP and HTTP request
// codecs and its response codecs — in the document's catalogue order.
import type { IrOperation, IrSpec, IrValue } from '../ir/model.js';
import { readParam, readResult, writeParam, writeResult, type Imports } from './codec-exprs.js';
import { encodeSteps, fieldCodecView } from './codecs-view.js';
import { ImportSet } from './imports.js';
import {
  docLines,
  header,
  paramsTypeName,
  provenanceLine,
  resultTypeName,
  tsParamType,
} from './ts-names.js';

const q = (s: string) => JSON.stringify(s);

function resultCodecs(op: IrOperation, imp: Imports) {
  const r = op.result;
  if (r.kind === 'none') {
    return {
      soapResponseWrite: [
        `out.write(${imp.internal.value('soapOperationElement')}(${q(op.responseElement)}, ns, ''));`,
      ],
      soapResponseDecode: 'return undefined;',
      httpResponseWrite: [],
      httpResponseDecode: 'return undefined;',
    };
  }
  const [value, item]: [IrValue, string | null] = [
    r.value,
    r.kind === 'list' ? r.itemElement : null,
  ];
  const write = writeResult(value, item, op.resultElement, imp);
  const root = op.httpRoot!;
  const rt = imp.internal;
  // A result a server may leave out: no Result element (an xsi:nil one reads the same), a nil root.
  const soapDecode = op.resultOmittedWhenNull
    ? `const c = ${rt.value('findChild')}(d, el, ns, ${q(op.resultElement)});\n      return c === ${rt.value('NO_ELEMENT')} || d.nil(c) ? undefined : ${readResult(value, item, 'c', imp)};`
    : `return ${readResult(value, item, `${rt.value('requireChild')}(d, el, ns, ${q(op.resultElement)})`, imp)};`;
  const httpRead = readResult(value, item, '0', imp);
  return {
    // Written in pieces to an XmlWriter, so a long list never becomes one huge string.
    soapResponseWrite: [
      `out.write(${imp.internal.value('openOperationElement')}(${q(op.responseElement)}, ns) + '<${op.resultElement}>');`,
      write,
      `out.write('</${op.resultElement}></${op.responseElement}>');`,
    ],
    soapResponseDecode: soapDecode,
    httpResponseWrite: [
      `out.write(${imp.internal.value('httpDocumentStart')}(${q(root)}, ns));`,
      write,
      `out.write('</${root}>');`,
    ],
    httpResponseDecode: `const d = ${rt.value('requireRoot')}(doc, ns, ${q(root)});\n      return ${op.resultOmittedWhenNull ? `d.nil(0) ? undefined : ${httpRead}` : httpRead};`,
  };
}

/**
 * Parameter lists of the OperationDef methods: a parameter the method never reads (no operation
 * parameters, no result) is named with a leading underscore, so generated code passes
 * noUnusedParameters.
 */
function signatures(op: IrOperation) {
  const params = op.parameters.length > 0;
  const result = op.result.kind !== 'none';
  const list = (names: string[], used: boolean[]) =>
    names.map((n, i) => (used[i] ? n : `_${n}`)).join(', ');
  return {
    encodeSoapRequest: list(['v', 'ns'], [params, true]),
    decodeHttpRequest: list(['form'], [params]),
    encodeHttpRequest: list(['v'], [params]),
    encodeSoapResponse: list(['r', 'ns', 'out'], [result, true, true]),
    decodeSoapResponse: list(['d', 'el', 'ns'], [result, result, result]),
    encodeHttpResponse: list(['r', 'ns', 'out'], [result, result, result]),
    decodeHttpResponse: list(['doc', 'ns'], [result, result]),
  };
}

function operationView(op: IrOperation, imp: Imports) {
  imp.internal.value('NO_ELEMENT'); // decode-body
  imp.internal.value('soapOperationElement'); // encodeSoapRequest
  const scope = { runtime: imp.runtime, complex: (n: string) => n };
  const fields = op.parameters.map((p) =>
    fieldCodecView(
      {
        name: p.name,
        xmlName: p.xmlName,
        value: { kind: 'scalar', scalar: p.scalar, scale: p.scale },
        list: null,
        nullable: false,
        optional: false,
      },
      op.name,
      tsParamType(p, scope),
      imp,
    ),
  );
  return {
    name: op.name,
    method: op.method,
    mutating: op.mutating,
    hasResult: op.result.kind !== 'none',
    responseElement: op.responseElement,
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    paramNames: `[${op.parameters.map((p) => q(p.name)).join(', ')}]`,
    docs: docLines([...op.docs, provenanceLine(op.provenance)]),
    fields,
    encodeSteps: encodeSteps(fields),
    signatures: signatures(op),
    httpReads: op.parameters.map((p) => ({ name: p.name, read: readParam(p, imp) })),
    httpWrites: op.parameters.map((p) => ({
      name: p.xmlName,
      text: writeParam(p, `v.${p.name}`, `${op.name}.${p.name}`, imp),
    })),
    ...resultCodecs(op, imp),
  };
}

export function operationsView(ir: IrSpec) {
  const imp: Imports = {
    runtime: new ImportSet(),
    internal: new ImportSet(),
    codecs: new ImportSet(),
  };
  imp.runtime.type('OperationDef');
  const operations = ir.operations.map((op) => operationView(op, imp));
  return {
    header: header('spec/operations.yaml'),
    runtimeImport: imp.runtime.statement('@evgen/runtime'),
    internalImport: imp.internal.statement('@evgen/runtime/internal'),
    codecImport: imp.codecs.statement('./codecs.js'),
    operations,
  };
}
