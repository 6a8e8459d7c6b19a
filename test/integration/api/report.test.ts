// The API report check (npm run api:check, a CI step) fails when the public surface changes
// without its report: run on a copy of @evgen/runtime's declarations, unchanged and then with an
// export added, an export removed and a signature changed, against the committed report.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script, run by node in CI: no declarations
import { PACKAGES, apiReport, buildDeclarations } from '../../../scripts/api-report.mjs';
import { PROJECT_ROOT } from '../../support/ir.js';

interface Pkg {
  report: string;
  dir: string;
  tsconfig: string;
}
interface Outcome {
  changed: boolean;
  succeeded: boolean;
  messages: string[];
}
const packages = PACKAGES as Pkg[];
const report = apiReport as (pkg: Pkg, o: { check: boolean; log?: (s: string) => void }) => Outcome;
const runtime = packages.find((p) => p.report === 'runtime')!;
let copy: string;

/** The check on a copy of the runtime's declarations, index.d.ts edited by `edit`. */
async function checkEdited(edit: (index: string) => string): Promise<Outcome & { log: string[] }> {
  const dir = await mkdtemp(join(copy, 'case-'));
  await cp(join(copy, 'pkg'), dir, { recursive: true });
  const index = join(dir, 'dist/index.d.ts');
  await writeFile(index, edit(await readFile(index, 'utf8')));
  const log: string[] = [];
  return { ...report({ ...runtime, dir }, { check: true, log: (s) => log.push(s) }), log };
}

beforeAll(async () => {
  (buildDeclarations as (p: Pkg) => void)(runtime);
  copy = await mkdtemp(join(tmpdir(), 'evgen-api-'));
  await cp(join(PROJECT_ROOT, runtime.dir, 'dist'), join(copy, 'pkg/dist'), { recursive: true });
  await cp(join(PROJECT_ROOT, runtime.dir, 'package.json'), join(copy, 'pkg/package.json'));
}, 120_000);
afterAll(() => rm(copy, { recursive: true, force: true }));

describe('npm run api:check', () => {
  it('passes on the declarations the committed report was made from', async () => {
    const r = await checkEdited((s) => s);
    expect(r).toMatchObject({ changed: false, succeeded: true, log: [] });
  });

  it.each([
    {
      given: 'an export added',
      edit: (s: string) => `${s}\nexport declare function newHelper(): void;\n`,
    },
    {
      given: 'an export removed',
      edit: (s: string) => s.replace('export { ServiceError, ', 'export { '),
    },
    {
      given: 'an export renamed',
      edit: (s: string) =>
        s.replace('export { ServiceError, ', 'export { ServiceError as ServiceFailure, '),
    },
  ])('fails on $given, naming the report to update', async ({ edit }) => {
    const r = await checkEdited(edit);
    expect(r.changed, 'the edit must reach the declarations').toBe(true);
    expect(r.log.join('\n')).toMatch(
      /runtime\.api\.md is not .*: run npm run api and commit the report/,
    );
  });
});
