// Views of the service-level modules: the AuthenticationHeader codec (auth.ts), the typed client
// (client.ts) and the server stub (server.ts).
import type { IrOperation, IrSpec, IrTransition } from '../ir/model.js';
import type { Imports } from './codec-exprs.js';
import { encodeSteps, fieldCodecView } from './codecs-view.js';
import { ImportSet } from './imports.js';
import { raisedBy } from './service-tables-view.js';
import { receivedResultName } from './received.js';
import { docLines, header, paramsTypeName, provenanceLine, resultTypeName } from './ts-names.js';

export function authView(ir: IrSpec) {
  const a = ir.auth;
  const imp: Imports = {
    runtime: new ImportSet(),
    internal: new ImportSet(),
    codecs: new ImportSet(),
  };
  ['NO_ELEMENT', 'soapOperationElement'].forEach((n) => imp.internal.value(n));
  ['AuthScheme', 'AuthValues'].forEach((n) => imp.runtime.type(n));
  const fields = a.fields.map((f) =>
    fieldCodecView(
      {
        name: f.name,
        xmlName: f.name,
        value: { kind: 'scalar', scalar: 'string', scale: null },
        list: null,
        nullable: false,
        optional: false,
      },
      a.headerElement,
      'string',
      imp,
    ),
  );
  return {
    header: header('spec/authentication.yaml'),
    headerElement: a.headerElement,
    headerDocs: docLines([
      ...a.docs,
      ...a.fields.flatMap((f) => [`${f.name}: ${f.docs.join(' ')}`]),
      provenanceLine(a.provenance),
    ]),
    runtimeImport: imp.runtime.statement('@evgen/runtime'),
    internalImport: imp.internal.statement('@evgen/runtime/internal'),
    fields,
    encodeSteps: encodeSteps(fields),
    httpHeaders: a.httpHeaders,
  };
}

const transitionDoc = (t: IrTransition) =>
  `State transition (spec/states.yaml): from ${t.from} to ${t.to}, for the record named by ${t.with}; condition: ${t.condition}; also: ${t.also}.`;

/** What client and handler methods say about an operation. */
export function operationDocs(op: IrOperation): string[] {
  return docLines([
    ...op.docs,
    ...op.transitions.map(transitionDoc),
    op.mutating ? 'Changes data: never retried.' : undefined,
    provenanceLine(op.provenance),
  ]);
}

function methodViews(ir: IrSpec) {
  return ir.operations.map((op) => ({
    name: op.name,
    method: op.method,
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    receivedType: receivedResultName(op),
    // Operations without parameters can be called with no argument.
    paramDefault: op.parameters.length === 0 ? ' = {}' : '',
    docs: operationDocs(op),
  }));
}

/** "SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST": bindings' titles, for docs. */
export function titleList(bindings: readonly { readonly title: string }[]): string {
  const titles = bindings.map((b) => b.title);
  return titles.length < 2
    ? titles.join('')
    : `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}`;
}

export function clientView(ir: IrSpec) {
  const methods = methodViews(ir);
  return {
    header: header('spec/operations.yaml'),
    title: ir.service.title,
    version: ir.service.version,
    bindings: titleList(ir.bindings),
    methods,
    pagedMethods: ir.operations.flatMap((op, i) =>
      op.paging
        ? [
            {
              ...methods[i]!,
              skip: op.paging.skip,
              paging: op.paging.size ? op.paging : { skip: op.paging.skip },
              docs: docLines([
                `Every item of ${op.name} from \`${op.paging.skip}\` (default 0) on, one page at a time: a page is requested once the previous one is consumed, so at most one page is held.`,
                op.paging.size
                  ? `The last page is the first one with fewer than \`${op.paging.size}\` items.`
                  : 'The last page is the first one that is empty or shorter than the first page.',
                provenanceLine(op.provenance),
              ]),
            },
          ]
        : [],
    ),
  };
}

export function serverView(ir: IrSpec) {
  return {
    header: header('spec/operations.yaml'),
    title: ir.service.title,
    version: ir.service.version,
    bindings: titleList(ir.bindings),
    // Null when the spec names none: the docs then say partial servers are refused.
    notImplementedCode: raisedBy(ir, 'notImplemented')?.code ?? null,
    replayRefused: ir.auth.replayRefused,
    methods: methodViews(ir),
  };
}
