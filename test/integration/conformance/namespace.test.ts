// A server reached at another address than its own (its public URL fixes the namespace, as an
// ASMX service's is compiled in): the checker takes the server's namespace (--namespace) instead
// of the one the URL gives.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkConformance } from '@evgen/event-management/conformance';
import { WIRE } from '@evgen/event-management/service';
import { startReferenceService } from '../../../src/reference/serve.js';

const PUBLIC = 'https://events.example.com';
let dir: string;
let svc: Awaited<ReturnType<typeof startReferenceService>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-conf-ns-'));
  svc = await startReferenceService({
    database: join(dir, 'events.sqlite'),
    port: 0,
    log: () => undefined,
    seed: { events: 2, bookings: 10 },
    publicUrl: PUBLIC,
  });
});
afterAll(async () => {
  await svc.close();
  await rm(dir, { recursive: true, force: true });
});

const run = (namespace?: string) =>
  checkConformance({
    url: svc.server.url,
    apiKey: svc.demoKey!.apiKey,
    secretKey: svc.demoKey!.secretKey,
    only: ['GetAttendeeStatuses'],
    values: { eventId: '1' },
    ...(namespace ? { namespace } : {}),
  });

it.each([
  // SOAP requests in the URL's namespace are refused; HTTP answers come in the server's.
  { given: undefined, want: { soap: 'not-implemented', http: 'fail' } },
  { given: `${PUBLIC}/API/1_0/SOAP/`, want: { soap: 'pass', http: 'pass' } },
])('namespace $given → GetAttendeeStatuses $want', async ({ given, want }) => {
  const report = await run(given);
  const rows = report.results.filter((r) => r.group === 'GetAttendeeStatuses');
  expect(rows.map((r) => r.status)).toEqual(WIRE.bindings.map((b) => want[b.kind]));
});
