import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  resolve: {
    alias: { '@evgen/runtime': fileURLToPath(new URL('../src/runtime/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts', 'generated/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/conformance-setup.ts'],
  },
});
