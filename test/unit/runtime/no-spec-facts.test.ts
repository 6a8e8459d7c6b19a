// The runtime knows no wire fact of this interface: fault codes, their detail element, binding
// ids, content types, the endpoint, operation and parameter names all reach it as generated
// tables. Any of them written as a string literal in src/runtime fails here, the conformance
// checker included.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, projectIr } from '../../support/ir.js';

const RUNTIME = join(PROJECT_ROOT, 'src/runtime');
/** Literals that are protocol or report words and only look like a spec fact (`in`: a file or a folder/). */
const PROTOCOL: readonly { in: string; literal: string; why: string }[] = [
  { in: 'xml/envelope.ts', literal: 'soap12', why: 'the SOAP 1.2 envelope prefix' },
  { in: 'conformance/', literal: 'skip', why: 'a check status in the report, not the parameter' },
];
const excepted = (path: string, fact: string) =>
  PROTOCOL.some(
    (p) => p.literal === fact && (p.in.endsWith('/') ? path.startsWith(p.in) : path === p.in),
  );

async function runtimeSources(): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(RUNTIME, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(RUNTIME, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((p) => !p.startsWith('dist/'));
  return Promise.all(
    files.map(async (path) => ({ path, text: await readFile(join(RUNTIME, path), 'utf8') })),
  );
}

describe('src/runtime', () => {
  it('writes no fault code, binding, content type, endpoint, operation or parameter of the spec', async () => {
    const ir = await projectIr();
    const facts = new Set([
      ...ir.faults.map((f) => f.code),
      ir.faultDetailElement,
      ir.faultHttpContentType,
      ...ir.bindings.flatMap((b) => [b.id, b.requestContentType ?? '', b.responseContentType]),
      ir.service.wsdlContentType,
      ir.service.endpointPath,
      ir.service.namespace.path,
      ...ir.operations.flatMap((o) => [o.name, ...o.parameters.map((p) => p.name)]),
    ]);
    facts.delete('');
    const found: string[] = [];
    for (const { path, text } of await runtimeSources())
      for (const fact of facts) {
        if (excepted(path, fact)) continue;
        for (const q of ["'", '"', '`'])
          if (text.includes(`${q}${fact}${q}`)) found.push(`${path}: ${q}${fact}${q}`);
      }
    expect(found).toEqual([]);
  });
});
