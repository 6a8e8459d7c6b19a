// Views of the service-level modules: service constants and the AuthenticationHeader codec
// (auth.ts), the typed client (client.ts) and the server stub (server.ts).
import type { IrSpec } from '../ir/model.js';
import { fieldCodecView } from './codecs-view.js';
import { docLines, header, paramsTypeName, provenanceLine, resultTypeName } from './ts-names.js';

export function authView(ir: IrSpec) {
  const a = ir.auth;
  return {
    header: header('spec/service.yaml and spec/authentication.yaml'),
    service: {
      name: ir.service.name,
      version: ir.service.version,
      endpointPath: ir.service.endpointPath,
      // `{base_url}/API/1_0/SOAP/` → the suffix appended to the base URL.
      namespaceSuffix: ir.service.namespaceRule.replace('{base_url}', ''),
    },
    headerElement: a.headerElement,
    headerDocs: docLines([
      ...a.fields.flatMap((f) => [`${f.name}: ${f.docs.join(' ')}`]),
      provenanceLine(a.provenance),
    ]),
    fields: a.fields.map((f) =>
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
      ),
    ),
    httpHeaders: a.httpHeaders,
    clockSkewSeconds: a.clockSkewSeconds,
    timestampFormat: a.timestampFormat,
  };
}

function methodViews(ir: IrSpec) {
  return ir.operations.map((op) => ({
    name: op.name,
    method: op.method,
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    // Operations without parameters can be called with no argument.
    paramDefault: op.parameters.length === 0 ? ' = {}' : '',
    docs: docLines([
      ...op.docs,
      op.mutating ? 'Changes data: never retried.' : undefined,
      provenanceLine(op.provenance),
    ]),
  }));
}

export function clientView(ir: IrSpec) {
  const methods = methodViews(ir);
  return {
    header: header('spec/operations.yaml'),
    title: ir.service.title,
    version: ir.service.version,
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
    methods: methodViews(ir),
  };
}
