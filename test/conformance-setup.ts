// vitest global setup: a reference service on a temporary database for the generated conformance
// suite (generated/src/conformance.test.ts), unless EVGEN_CONFORMANCE_URL names another target.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceService } from '../src/reference/serve.js';
import { createToken } from '../src/reference/tokens.js';

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.EVGEN_CONFORMANCE_URL) return () => Promise.resolve();
  const dir = await mkdtemp(join(tmpdir(), 'evgen-suite-'));
  const svc = await startReferenceService({
    dbPath: join(dir, 'events.sqlite'),
    port: 0,
    log: () => undefined,
    seed: { events: 12, bookings: 300 },
  });
  Object.assign(process.env, {
    EVGEN_CONFORMANCE_URL: svc.server.url,
    EVGEN_CONFORMANCE_API_KEY: svc.demoKey!.apiKey,
    EVGEN_CONFORMANCE_SECRET: svc.demoKey!.secretKey,
    EVGEN_CONFORMANCE_WRITES: '1',
    EVGEN_CONFORMANCE_HOSTILE: '1',
    EVGEN_CONFORMANCE_TOKEN: createToken(svc.db, { contactId: 1, singleUse: false }).token,
  });
  return async () => {
    await svc.close();
    await rm(dir, { recursive: true, force: true });
  };
}
