// View of generated/src/wsdl.ts: the WSDL 1.1 an ASMX service of this shape publishes (XSD types,
// messages, port types, SOAP 1.1/1.2 and HTTP GET/POST bindings). Every attribute is decided here.
import type { IrField, IrOperation, IrSpec, IrValue, ScalarKind } from '../ir/model.js';
import { header } from './ts-names.js';

const XSD: Record<ScalarKind, string> = {
  int: 's:int',
  string: 's:string',
  boolean: 's:boolean',
  decimal: 's:decimal',
  dateTime: 's:dateTime',
};

/** Text for XML inside a JS template literal. */
const xmlText = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[`\\]/g, '\\$&')
    .replace(/\$\{/g, '\\${');

const valueType = (v: IrValue) => (v.kind === 'scalar' ? XSD[v.scalar] : `tns:${v.typeName}`);
const arrayName = (itemElement: string) =>
  `ArrayOf${itemElement.charAt(0).toUpperCase()}${itemElement.slice(1)}`;

export function wsdlView(ir: IrSpec) {
  const arrays = new Map<string, { name: string; itemElement: string; itemType: string }>();
  const arrayOf = (v: IrValue, itemElement: string, where: string) => {
    const name = arrayName(itemElement);
    const itemType = valueType(v);
    const known = arrays.get(name);
    if (known && known.itemType !== itemType)
      throw new Error(
        `${where}: ${name} would hold ${itemType} here but ${known.itemType} elsewhere`,
      );
    arrays.set(name, { name, itemElement, itemType });
    return `tns:${name}`;
  };
  const element = (f: IrField, owner: string) => ({
    name: f.xmlName,
    type: f.list ? arrayOf(f.value, f.list.itemElement, `${owner}.${f.name}`) : valueType(f.value),
    minOccurs: f.optional ? '0' : '1',
    nillable: f.nullable ? ' nillable="true"' : '',
  });
  const resultType = (op: IrOperation) => {
    const r = op.result;
    return r.kind === 'none'
      ? undefined
      : r.kind === 'type'
        ? `tns:${r.typeName}`
        : arrayOf(r.value, r.itemElement, op.name);
  };

  const types = ir.types
    .filter((t) => !t.abstract)
    .map((t) => ({
      name: t.name,
      elements: t.fields.map((f) => element(f, t.name)),
      empty: t.fields.length === 0,
    }));
  const operations = ir.operations.map((op) => {
    const rt = resultType(op);
    return {
      name: op.name,
      doc: xmlText(op.docs[0] ?? ''),
      params: op.parameters.map((p) => ({ name: p.xmlName, type: XSD[p.scalar] })),
      responseElement: op.responseElement,
      results: rt ? [{ name: op.resultElement, type: rt }] : [],
      httpParts: op.httpRoot ? [{ element: `tns:${op.httpRoot}` }] : [],
      httpRoot: op.httpRoot,
      resultType: rt,
    };
  });
  const roots = new Map<string, string>();
  for (const op of operations)
    if (op.httpRoot && op.resultType) roots.set(op.httpRoot, op.resultType);

  return {
    header: header('spec/ (service, authentication, types, operations)'),
    serviceName: ir.service.wsdlServiceName,
    doc: xmlText(`${ir.service.title} ${ir.service.version}`),
    authElement: ir.auth.headerElement,
    authFields: ir.auth.fields.map((f) => ({ name: f.name })),
    types,
    arrays: [...arrays.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
    httpRoots: [...roots]
      .map(([name, type]) => ({ name, type }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    operations,
    soapBindings: [
      { name: `${ir.service.wsdlServiceName}Soap`, prefix: 'soap' },
      { name: `${ir.service.wsdlServiceName}Soap12`, prefix: 'soap12' },
    ],
    httpBindings: [
      {
        name: `${ir.service.wsdlServiceName}HttpGet`,
        suffix: 'HttpGet',
        verb: 'GET',
        input: '<http:urlEncoded />',
      },
      {
        name: `${ir.service.wsdlServiceName}HttpPost`,
        suffix: 'HttpPost',
        verb: 'POST',
        input: '<mime:content type="application/x-www-form-urlencoded" />',
      },
    ],
  };
}
