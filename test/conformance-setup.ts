// vitest global setup: a reference service on a temporary database for the generated conformance
// suite (generated/src/conformance.test.ts), unless EVGEN_CONFORMANCE_URL names another target.
// The suite's variables are provided to this tier's workers (test/conformance-env.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startReferenceService } from '../src/reference/serve.js';
import { createToken } from '../src/reference/tokens.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** EVGEN_CONFORMANCE_* variables for the generated suite. */
    conformance: Record<string, string>;
  }
}

/** Serves a seeded reference service on `database`; the suite's variables and a stop. */
export async function conformanceTarget(
  database: string,
): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const svc = await startReferenceService({
    database,
    port: 0,
    log: () => undefined,
    seed: { events: 12, bookings: 300 },
  });
  const token = await svc.database.run(createToken({ contactId: 1, singleUse: false }));
  return {
    env: {
      EVGEN_CONFORMANCE_URL: svc.server.url,
      EVGEN_CONFORMANCE_API_KEY: svc.demoKey!.apiKey,
      EVGEN_CONFORMANCE_SECRET: svc.demoKey!.secretKey,
      EVGEN_CONFORMANCE_WRITES: '1',
      EVGEN_CONFORMANCE_HOSTILE: '1',
      EVGEN_CONFORMANCE_TOKEN: token.token,
    },
    stop: () => svc.close(),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.EVGEN_CONFORMANCE_URL) {
    project.provide('conformance', {});
    return () => Promise.resolve();
  }
  const dir = await mkdtemp(join(tmpdir(), 'evgen-suite-'));
  const target = await conformanceTarget(join(dir, 'events.sqlite'));
  project.provide('conformance', target.env);
  return async () => {
    await target.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
