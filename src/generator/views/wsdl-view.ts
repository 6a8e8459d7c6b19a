// View of generated/src/wsdl.ts: the WSDL 1.1 an ASMX service of this shape publishes (XSD types,
// messages, port types, a binding and a port per spec binding). Every attribute is decided here,
// from the IR: binding names, verbs, paths, SOAPActions and XSD type names all come from spec/.
import type { IrBinding, IrField, IrOperation, IrSpec, IrValue, ScalarKind } from '../ir/model.js';
import { header } from './ts-names.js';

/** Text for XML inside a JS template literal. */
const xmlText = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[`\\]/g, '\\$&')
    .replace(/\$\{/g, '\\${');

const arrayName = (itemElement: string) =>
  `ArrayOf${itemElement.charAt(0).toUpperCase()}${itemElement.slice(1)}`;

/** The WSDL extension prefix of a SOAP binding (declared on wsdl:definitions). */
const soapPrefix = (b: IrBinding) => (b.soapVersion === '1.1' ? 'soap' : 'soap12');

function bindingViews(ir: IrSpec) {
  const { wsdlServiceName: service, wsdlPortTypePrefix: prefix } = ir.service;
  const soap = ir.bindings.filter((b) => b.kind === 'soap');
  const http = ir.bindings.filter((b) => b.kind === 'http');
  // The SOAP bindings share one port type, named after the first of them (as ASMX does).
  const soapPortType = soap[0] ? `${prefix}${soap[0].wsdlName}` : '';
  return {
    soapPortType,
    soapBindings: soap.map((b) => ({
      name: `${service}${b.wsdlName}`,
      prefix: soapPrefix(b),
      // `{soap_namespace}` is the target namespace, `${tns}` in the template literal.
      action: (op: IrOperation) =>
        b.soapAction === null
          ? ''
          : ` soapAction="${xmlText(b.soapAction.replace(/^"(.*)"$/, '$1'))
              .replace('{soap_namespace}', '${tns}')
              .replace('{Operation}', op.name)}"`,
    })),
    httpBindings: http.map((b) => ({
      name: `${service}${b.wsdlName}`,
      portType: `${prefix}${b.wsdlName}`,
      suffix: b.wsdlName,
      verb: b.method,
      location: (op: IrOperation) =>
        xmlText(b.path.replace('{endpoint}', '').replace('{Operation}', op.name)),
      input:
        b.requestContentType === null
          ? '<http:urlEncoded />'
          : `<mime:content type="${xmlText(b.requestContentType.split(';')[0]!.trim())}" />`,
    })),
  };
}

export function wsdlView(ir: IrSpec) {
  const xsd = (k: ScalarKind) => `s:${ir.primitives.find((p) => p.name === k)!.xsd}`;
  // Complex types by their names in the WSDL (xmlName), which may differ from TypeScript's.
  const wire = new Map(ir.types.map((t) => [t.name, t.xmlName]));
  const valueType = (v: IrValue) =>
    v.kind === 'scalar' ? xsd(v.scalar) : `tns:${wire.get(v.typeName)!}`;
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
    // As ASMX's own WSDL: 0 where a server may leave the element out (gap of omittedWhenNull).
    minOccurs: f.optional || f.omittedWhenNull ? '0' : '1',
    nillable: f.nullable ? ' nillable="true"' : '',
  });
  const resultType = (op: IrOperation) => {
    const r = op.result;
    return r.kind === 'none'
      ? undefined
      : r.kind === 'value'
        ? valueType(r.value)
        : arrayOf(r.value, r.itemElement, op.name);
  };

  const types = ir.types
    .filter((t) => !t.abstract)
    .map((t) => ({
      name: t.xmlName,
      elements: t.fields.map((f) => element(f, t.name)),
      empty: t.fields.length === 0,
    }));
  const b = bindingViews(ir);
  const operations = ir.operations.map((op) => {
    const rt = resultType(op);
    return {
      name: op.name,
      doc: xmlText(op.docs[0] ?? ''),
      params: op.parameters.map((p) => ({ name: p.xmlName, type: xsd(p.scalar) })),
      responseElement: op.responseElement,
      results: rt
        ? [{ name: op.resultElement, type: rt, minOccurs: op.resultOmittedWhenNull ? '0' : '1' }]
        : [],
      httpParts: op.httpRoot ? [{ element: `tns:${op.httpRoot}` }] : [],
      httpRoot: op.httpRoot,
      resultType: rt,
      soapActions: Object.fromEntries(b.soapBindings.map((s) => [s.name, s.action(op)])),
      httpLocations: Object.fromEntries(b.httpBindings.map((h) => [h.name, h.location(op)])),
    };
  });
  const roots = new Map<string, string>();
  for (const op of operations)
    if (op.httpRoot && op.resultType) roots.set(op.httpRoot, op.resultType);

  return {
    header: header('spec/ (service, primitives, authentication, types, operations)'),
    serviceName: ir.service.wsdlServiceName,
    doc: xmlText(`${ir.service.title} ${ir.service.version}`),
    authElement: ir.auth.headerElement,
    authFields: ir.auth.fields.map((f) => ({ name: f.name })),
    // HTTP GET/POST parameters and the header's values travel as text.
    textType: xsd('string'),
    types,
    arrays: [...arrays.values()].sort((x, y) => (x.name < y.name ? -1 : 1)),
    httpRoots: [...roots]
      .map(([name, type]) => ({ name, type }))
      .sort((x, y) => (x.name < y.name ? -1 : 1)),
    operations,
    soapPortType: b.soapPortType,
    soapBindings: b.soapBindings.map(({ name, prefix }) => ({ name, prefix })),
    httpBindings: b.httpBindings.map(({ name, portType, suffix, verb, input }) => ({
      name,
      portType,
      suffix,
      verb,
      input,
    })),
  };
}
