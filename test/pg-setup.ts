// Global setup of the pg tier: one PostgreSQL server for the run (src/reference/pg/local-server.ts),
// stopped at the end; each test file makes its own database on it (test/support/backend.ts).
// The generated conformance suite checks a reference service on a database of its own there.
import type { TestProject } from 'vitest/node';
import { conformanceTarget } from './conformance-setup.js';
import { PgCluster, TEST_SETTINGS, type PgRunInfo } from '../src/reference/pg/local-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL server (pg tier only). */
    postgres: PgRunInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await PgCluster.start(TEST_SETTINGS);
  try {
    project.provide('postgres', { bin: cluster.bin, dir: cluster.dir });
    const target = await conformanceTarget(await cluster.createDatabase());
    project.provide('conformance', target.env);
    return async () => {
      await target.stop();
      await cluster.stop();
    };
  } catch (e) {
    await cluster.stop();
    throw e;
  }
}
