// The generated package's README: what the package holds, how to call and serve the service, how
// requests are signed, and the bindings, operations and faults, all from the spec.
import type { PackageInfo } from '../artifacts.js';
import type { IrOperation, IrSpec } from '../ir/model.js';
import { AUDIENCE_DOCS, AUDIENCES } from '../spec/format-service.js';
import { PRIMITIVE_CODECS } from './primitives.js';
import { titleList } from './service-view.js';
import { faultCarriage, raisedBy } from './service-tables-view.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function resultText(op: IrOperation): string {
  const r = op.result;
  if (r.kind === 'none') return 'nothing';
  const one = r.value.kind === 'complex' ? r.value.typeName : r.value.scalar;
  return r.kind === 'value' ? one : `list of ${one}`;
}

/** `subpaths`: the package's export subpaths (`./client`…). */
export function readmeView(ir: IrSpec, pkg: PackageInfo, subpaths: readonly string[]) {
  const example = ir.operations.find((o) => !o.mutating && o.parameters.length > 0)!;
  const exampleArgs = example.parameters
    .map((p) => `${p.name}: ${PRIMITIVE_CODECS[p.scalar].ts === 'number' ? '1' : `'…'`}`)
    .join(', ');
  const [first, ...others] = ir.bindings;
  const http = ir.bindings.filter((b) => b.kind === 'http');
  return {
    name: pkg.name,
    title: ir.service.title,
    version: ir.service.version,
    endpointPath: ir.service.endpointPath,
    namespaceRule: ir.service.namespaceRule,
    namespaceScheme: ir.service.namespace.scheme,
    bindingTitles: titleList(ir.bindings),
    bindingChoice: `binding: '${first!.id}',${others.length ? ` // or ${others.map((b) => `'${b.id}'`).join(', ')}` : ''}`,
    example: { method: example.method, args: `{ ${exampleArgs} }` },
    receivedNote: receivedNote(ir),
    // Null when the spec names none: the README then says partial servers are refused.
    notImplementedCode: raisedBy(ir, 'notImplemented')?.code ?? null,
    internalMessage: raisedBy(ir, 'internal')!.message ?? '',
    auth: {
      headerElement: ir.auth.headerElement,
      fields: ir.auth.fields.map((f) => ({ name: f.name, doc: cell(f.docs.join(' ')) })),
      httpBindings: http.length ? titleList(http) : null,
      httpHeaders: Object.values(ir.auth.httpHeaders).join(', '),
      clockSkewSeconds: ir.auth.clockSkewSeconds,
      replayRefused: ir.auth.replayRefused,
    },
    bindings: ir.bindings.map((b) => ({
      id: b.id,
      title: b.title,
      method: b.method,
      path: b.path.replace('{endpoint}', ir.service.endpointPath),
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
    faultDetailElement: ir.faultDetailElement,
    faults: ir.faults.map((f) => ({
      code: f.code,
      soap11: f.soap11,
      soap12: f.soap12,
      ...faultCarriage(f),
      doc: cell(f.doc),
    })),
    subpaths: subpaths.map((s) => `\`${pkg.name}${s.slice(1)}\``).join(', '),
    compatibility: {
      kept: ir.compatibility.audiences.map((name) => ({ name, doc: AUDIENCE_DOCS[name] })),
      notKept: AUDIENCES.filter((a) => !ir.compatibility.audiences.includes(a)).map((name) => ({
        name,
        doc: AUDIENCE_DOCS[name],
      })),
    },
  };
}

/** What the client returns: the received form of each result (spec conventions.omittedWhenNull). */
function receivedNote(ir: IrSpec): string {
  const omitted = ir.service.omittedWhenNull;
  return omitted
    ? `Results come in their received form (\`<Type>Received\`): a ${omitted.values.slice(0, -1).join(', ')}${omitted.values.length > 1 ? ' or ' : ''}${omitted.values.at(-1)} value a server left out because it had none is absent, and a result it did not send is \`undefined\` (gap \`${omitted.gap}\`); handlers return \`<Type>\`, every field set.`
    : 'Results come in their received form (`<Type>Received`), the same as handlers return them.';
}
