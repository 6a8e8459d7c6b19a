// Test controls as an integrator's zeep client meets them: Unavailable forced on the reference
// service reaches zeep over SOAP 1.1 and 1.2 with the spec's SOAP fault code and ErrorCode, and
// the next call is served again.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import { startReference, type Reference } from '../integration/reference/harness.js';
import { PYTHON, requireTool, run } from './tools.js';

const TOKEN = 'interop-token-0123456789';
const PORTS = ['ServiceAPISoap', 'ServiceAPISoap12'];
const unavailable = WIRE.faults.codes.find((c) => c.code === 'Unavailable')!;

let ref: Reference;
let dir: string;
beforeAll(async () => {
  ref = await startReference(
    { events: 2, bookings: 10 },
    { workers: 1, admin: { port: 0 }, testControls: { token: TOKEN } },
  );
  dir = await mkdtemp(join(tmpdir(), 'evgen-controls-'));
});
afterAll(async () => {
  await ref?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** zeep calls GetShows once on each SOAP port: what it saw on each. */
async function zeepGetShows(): Promise<Record<string, unknown>[]> {
  const input = join(dir, 'zeep.json');
  const key = ref.svc.demoKey!;
  await writeFile(
    input,
    JSON.stringify({
      wsdl: `${ref.svc.server.url}${SERVICE.endpointPath}?wsdl`,
      apiKey: key.apiKey,
      secret: key.secretKey,
      operations: { GetShows: {} },
    }),
  );
  const script = fileURLToPath(new URL('./zeep_faults.py', import.meta.url));
  const { code, stdout, stderr } = await run(PYTHON, [script, input]);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as Record<string, unknown>[];
}

it('zeep sees Unavailable forced by a test control, on SOAP 1.1 and 1.2, then an answer', async () => {
  requireTool(PYTHON, 'python3-zeep');
  const armed = await fetch(`${ref.svc.admin!.url}/controls/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'GetShows', fault: 'Unavailable', times: PORTS.length }),
  });
  expect(armed.status).toBe(201);
  const faulted = await zeepGetShows();
  expect(faulted).toEqual(
    PORTS.map((port) => ({
      port,
      operation: 'GetShows',
      code: port.endsWith('12') ? unavailable.soap12 : unavailable.soap11,
      message: 'Unavailable forced by a test control',
      errorCode: 'Unavailable',
    })),
  );
  expect(await zeepGetShows()).toEqual(
    PORTS.map((port) => ({ port, operation: 'GetShows', answer: 'no fault' })),
  );
});
