// A reference service on a temporary, freshly seeded database, with a client holding its demo key.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventServiceClient } from '@evgen/event-management/client';
import { BINDING_IDS, type BindingId } from '@evgen/event-management/service';
import {
  startReferenceService,
  type ReferenceOptions,
  type ReferenceService,
} from '../../../src/reference/serve.js';

export interface Reference {
  readonly svc: ReferenceService;
  readonly client: (binding?: BindingId) => EventServiceClient;
  readonly logs: string[];
  stop(): Promise<void>;
}

export async function startReference(
  seed = { events: 12, bookings: 400 },
  options: Pick<ReferenceOptions, 'cors' | 'testForms' | 'workers'> = {},
): Promise<Reference> {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-ref-'));
  const logs: string[] = [];
  const svc = await startReferenceService({
    dbPath: join(dir, 'events.sqlite'),
    port: 0,
    log: (l) => logs.push(l),
    seed,
    ...options,
  });
  const key = svc.demoKey!;
  return {
    svc,
    logs,
    client: (binding: BindingId = BINDING_IDS[0]) =>
      new EventServiceClient({
        baseUrl: svc.server.url,
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        binding,
      }),
    async stop() {
      await svc.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
