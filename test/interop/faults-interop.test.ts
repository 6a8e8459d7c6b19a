// Faults as clients nobody on the team wrote read them: zeep and node-soap over SOAP 1.1 and 1.2
// find the code of spec/errors.yaml in the detail, for a Client fault (NotFound, its SOAP status)
// and for Unavailable, whose 503 and Retry-After say "come back" on the SOAP bindings too.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceFault } from '@evgen/runtime';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import {
  KEY,
  authHeaderXml,
  authValues,
  startHarness,
  type Harness,
} from '../integration/e2e/harness.js';
import { at, callPort } from '../support/node-soap.js';
import { PYTHON, requireTool, run } from './tools.js';

const code = (name: string) => WIRE.faults.codes.find((c) => c.code === name)!;
/** What each port should show for each faulting operation: the spec's table, per SOAP version. */
const EXPECTED = [
  {
    operation: 'GetShows',
    params: {},
    fault: code('Unavailable'),
    message: 'database unreachable',
  },
  {
    operation: 'GetBookingDetails',
    params: { bookingId: 9 },
    fault: code('NotFound'),
    message: 'booking 9 does not exist',
  },
];
const PORTS = [
  { port: 'ServiceAPISoap', soap12: false },
  { port: 'ServiceAPISoap12', soap12: true },
];

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness({
    getShows: () => {
      throw new ServiceFault('Unavailable', 'database unreachable', undefined, {
        cause: new Error('connect ECONNREFUSED 10.20.30.40:5432'),
      });
    },
    getBookingDetails: ({ bookingId }) => {
      throw new ServiceFault('NotFound', `booking ${bookingId} does not exist`);
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'evgen-faults-'));
});
afterAll(async () => {
  await h.server.close();
  await rm(dir, { recursive: true, force: true });
});
const wsdlUrl = () => `${h.server.url}${SERVICE.endpointPath}?wsdl`;

describe('zeep (python3-zeep)', () => {
  it('reads each fault code from the detail, over SOAP 1.1 and 1.2', async () => {
    requireTool(PYTHON, 'python3-zeep');
    const input = join(dir, 'zeep-faults.json');
    const operations = Object.fromEntries(EXPECTED.map((e) => [e.operation, e.params]));
    await writeFile(
      input,
      JSON.stringify({ wsdl: wsdlUrl(), apiKey: KEY.apiKey, secret: KEY.secret, operations }),
    );
    const {
      code: exit,
      stdout,
      stderr,
    } = await run(PYTHON, [fileURLToPath(new URL('./zeep_faults.py', import.meta.url)), input]);
    expect(exit, stderr).toBe(0);
    const want = PORTS.flatMap(({ port, soap12 }) =>
      EXPECTED.map((e) => ({
        port,
        operation: e.operation,
        code: soap12 ? e.fault.soap12 : e.fault.soap11, // the QName as the service wrote it
        message: e.message,
        errorCode: e.fault.code,
      })),
    );
    expect(JSON.parse(stdout)).toEqual(want);
  }, 60_000);
});

describe('node-soap', () => {
  it('fails each call with the fault, its status and Retry-After, over SOAP 1.1 and 1.2', async () => {
    for (const { port, soap12 } of PORTS) {
      const client = await soap.createClientAsync(
        wsdlUrl(),
        soap12 ? { forceSoap12Headers: true } : {},
      );
      for (const e of EXPECTED) {
        client.clearSoapHeaders();
        client.addSoapHeader(authHeaderXml(h.ns, authValues(e.operation)));
        const err = await callPort(client, 'ServiceAPI', port, e.operation, e.params).catch(
          (x: unknown) => x,
        );
        const status = at(err, 'response', 'status');
        expect(status, `${port} ${e.operation}`).toBe(
          soap12 ? e.fault.soap12Status : e.fault.soap11Status,
        );
        const retryAfter = at(err, 'response', 'headers', 'retry-after');
        expect(retryAfter ?? null).toBe(
          e.fault.retryAfterSeconds === null ? null : String(e.fault.retryAfterSeconds),
        );
        const fault = at(err, 'root', 'Envelope', 'Body', 'Fault');
        expect(JSON.stringify(fault), `${port} ${e.operation}`).toContain(e.fault.code);
        expect(JSON.stringify(fault)).toContain(e.message);
      }
    }
  }, 60_000);
});
