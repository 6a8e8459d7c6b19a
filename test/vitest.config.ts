// Test tiers as vitest projects. `npm test` runs every tier that needs nothing but Node and npm
// (unit, integration, package); the tiers that drive other software have their own scripts and
// run in CI (.ci/run installs what they need).
//   unit         no servers, no child processes, no network: `npm run test:unit`
//   integration  real HTTP on 127.0.0.1, child processes, the CLI, node-soap
//   package      packs the two packages and compiles a scratch project against them
//   interop      Debian tools: python3-zeep, xmllint, xsltproc, curl (`npm run test:interop`)
//   browser      Debian's chromium driven by playwright-core (`npm run test:browser`)
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
const runtimeSource = fileURLToPath(new URL('../src/runtime/index.ts', import.meta.url));
const generatedSource = fileURLToPath(new URL('../generated/src/', import.meta.url));

const tier = (
  name: string,
  include: string[],
  extra: TestProjectInlineConfiguration['test'] = {},
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, ...extra },
});

export default defineConfig({
  root,
  // The workspace packages resolve to their TypeScript sources, as tsconfig.json's paths say.
  resolve: {
    alias: [
      { find: /^@evgen\/runtime$/, replacement: runtimeSource },
      { find: /^@evgen\/event-management\/(.*)$/, replacement: `${generatedSource}$1.ts` },
      { find: /^@evgen\/event-management$/, replacement: `${generatedSource}index.ts` },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      tier('unit', ['test/unit/**/*.test.ts']),
      tier('integration', ['test/integration/**/*.test.ts', 'generated/src/**/*.test.ts'], {
        globalSetup: ['test/conformance-setup.ts'],
      }),
      tier('package', ['test/package/**/*.test.ts']),
      tier('interop', ['test/interop/**/*.test.ts']),
      tier('browser', ['test/browser/**/*.test.ts'], { testTimeout: 60_000 }),
    ],
  },
});
