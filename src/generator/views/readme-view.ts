// The generated package's README: what the package holds, how to call and serve the service, how
// requests are signed, and the bindings, operations and faults, all from the spec.
import type { PackageInfo } from '../artifacts.js';
import type { IrOperation, IrSpec } from '../ir/model.js';
import { tsParamType } from './ts-names.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function resultText(op: IrOperation): string {
  const r = op.result;
  if (r.kind === 'none') return 'nothing';
  if (r.kind === 'type') return r.typeName;
  const item = r.value.kind === 'complex' ? r.value.typeName : r.value.scalar;
  return `list of ${item}`;
}

export function readmeView(ir: IrSpec, pkg: PackageInfo) {
  const example = ir.operations.find((o) => !o.mutating && o.parameters.length > 0)!;
  const exampleArgs = example.parameters
    .map((p) => `${p.name}: ${tsParamType(p) === 'number' ? '1' : `'…'`}`)
    .join(', ');
  return {
    name: pkg.name,
    title: ir.service.title,
    version: ir.service.version,
    endpointPath: ir.service.endpointPath,
    namespaceRule: ir.service.namespaceRule,
    example: { method: example.method, args: `{ ${exampleArgs} }` },
    auth: {
      headerElement: ir.auth.headerElement,
      fields: ir.auth.fields.map((f) => ({ name: f.name, doc: cell(f.docs.join(' ')) })),
      httpHeaders: Object.values(ir.auth.httpHeaders).join(', '),
      clockSkewSeconds: ir.auth.clockSkewSeconds,
    },
    bindings: ir.bindings.map((b) => ({
      id: b.id,
      title: b.title,
      method: b.method,
      path: b.kind === 'soap' ? ir.service.endpointPath : `${ir.service.endpointPath}/<Operation>`,
      contentType: b.requestContentType ?? '(query string)',
    })),
    operations: ir.operations.map((o) => ({
      name: o.name,
      method: o.method,
      parameters: o.parameters.map((p) => `${p.name}: ${p.scalar}`).join(', ') || '—',
      result: resultText(o),
      purpose: cell(`${o.docs[0] ?? ''}${o.mutating ? ' Changes data (never retried).' : ''}`),
    })),
    pagedMethods: ir.operations.filter((o) => o.paging !== null).map((o) => o.method),
    faults: ir.faults.map((f) => ({
      code: f.code,
      soap11: f.soap11,
      soap12: f.soap12,
      http: f.httpStatuses.join(', '),
      doc: cell(f.doc),
    })),
  };
}
