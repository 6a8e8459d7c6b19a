// Test tiers as vitest projects. `npm test` runs every tier that needs nothing but Node and npm
// (unit, integration, package); the tiers that drive other software have their own scripts and
// run in CI (.ci/run installs what they need).
//   unit         no servers, no child processes, no network: `npm run test:unit`
//   integration  real HTTP on 127.0.0.1, child processes, the CLI, node-soap
//   package      packs the two packages and compiles a scratch project against them
//   pg           the reference service on PostgreSQL: the tests of PG_MATRIX again, on a
//                PostgreSQL server the tier starts itself, and the tests of several nodes on one
//                database (`npm run test:pg`; in `npm test` when the server binaries are there)
//   interop      Debian tools: python3-zeep, xmllint, xsltproc, curl (`npm run test:interop`)
//   asmx         Mono's ASMX (Debian's mono-devel) serving a service generated from our WSDL,
//                called by the generated client and judged by evgen conformance (`npm run test:asmx`)
//   browser      Debian's chromium driven by playwright-core (`npm run test:browser`)
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { postgresBin } from '../src/reference/pg/local-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const runtimeSource = fileURLToPath(new URL('../src/runtime/index.ts', import.meta.url));
const runtimeInternal = fileURLToPath(new URL('../src/runtime/internal.ts', import.meta.url));
const generatedSource = fileURLToPath(new URL('../generated/src/', import.meta.url));

const tier = (
  name: string,
  include: string[],
  extra: TestProjectInlineConfiguration['test'] = {},
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, ...extra },
});

// The tests that run on both databases: the same files, once per tier; each asks
// test/support/backend.ts for its database (EVGEN_TEST_BACKEND, set by the tier).
const PG_MATRIX = [
  'generated/src/conformance.test.ts',
  'test/integration/reference/operations.test.ts',
  'test/integration/reference/capacity-injection.test.ts',
  'test/integration/reference/attendee-counts.test.ts',
  'test/integration/reference/replay.test.ts',
  'test/integration/reference/cli.test.ts',
  'test/integration/reference/fairness.test.ts',
  'test/integration/reference/metrics.test.ts',
  'test/integration/reference/controls.test.ts',
  'test/integration/reference/request-ids.test.ts',
];

/**
 * The pg tier, when PostgreSQL's server binaries are installed. Without them `npm test` says so in
 * one line and runs the rest; CI (CI=true) and `npm run test:pg` (EVGEN_PG=required) refuse to.
 */
function pgTier(): TestProjectInlineConfiguration[] {
  if (postgresBin()) {
    return [
      tier('pg', [...PG_MATRIX, 'test/pg/**/*.test.ts'], {
        globalSetup: ['test/pg-setup.ts'],
        setupFiles: ['test/conformance-env.ts'],
        env: { EVGEN_TEST_BACKEND: 'postgres' },
      }),
    ];
  }
  const missing =
    'PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin, or EVGEN_PG_BIN): the pg tier is not run; apt-get install postgresql';
  if (process.env.CI === 'true' || process.env.EVGEN_PG === 'required') throw new Error(missing);
  // This file is evaluated once per project (extends: true): one line, the first time.
  if (!process.env.EVGEN_PG_NOTICE) console.warn(missing);
  process.env.EVGEN_PG_NOTICE = 'shown';
  return [];
}

export default defineConfig({
  root,
  // The workspace packages resolve to their TypeScript sources, as tsconfig.json's paths say.
  resolve: {
    alias: [
      { find: /^@evgen\/runtime$/, replacement: runtimeSource },
      { find: /^@evgen\/runtime\/internal$/, replacement: runtimeInternal },
      { find: /^@evgen\/event-management\/(.*)$/, replacement: `${generatedSource}$1.ts` },
      { find: /^@evgen\/event-management$/, replacement: `${generatedSource}index.ts` },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      // Unit files hold no servers and no process state, so they share modules (the generator,
      // typescript and prettier load once per worker, not once per file) and use both cores
      // (vitest's default leaves one free): 49 s -> 22 s on this 2-core machine.
      tier('unit', ['test/unit/**/*.test.ts'], {
        isolate: false,
        maxWorkers: availableParallelism(),
        // vitest runs projects with their own worker count in a group of their own: after the rest.
        sequence: { groupOrder: 1 },
      }),
      tier('integration', ['test/integration/**/*.test.ts', 'generated/src/**/*.test.ts'], {
        globalSetup: ['test/conformance-setup.ts'],
        setupFiles: ['test/conformance-env.ts'],
      }),
      tier('package', ['test/package/**/*.test.ts']),
      ...pgTier(),
      tier('interop', ['test/interop/**/*.test.ts']),
      // Mono is built and started once (about 10 s), for every file of the tier.
      tier('asmx', ['test/asmx/**/*.test.ts'], {
        globalSetup: ['test/asmx/setup.ts'],
        hookTimeout: 300_000,
      }),
      tier('browser', ['test/browser/**/*.test.ts'], { testTimeout: 60_000 }),
    ],
  },
});
