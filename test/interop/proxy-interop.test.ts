// Clients nobody on the team wrote, through evgen proxy in front of the reference service: zeep
// (from the WSDL the proxy forwards, whose addresses lead back to it) calls every read operation
// over SOAP 1.1 and 1.2, and curl signs HTTP GET and POST calls as the README shows. Each gets
// exactly the bytes the target sent (zeep's answers hash as the cassette's bodies; curl's output
// is byte for byte the target's own), and the proxy finds nothing in their traffic.
import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverConformanceValues } from '@evgen/event-management/conformance';
import { SERVICE } from '@evgen/event-management/service';
import { CassetteWriter, readCassette } from '../../src/proxy/cassette.js';
import { projectIr } from '../support/ir.js';
import { startReference, type Reference } from '../integration/reference/harness.js';
import { watch, type Watched } from '../integration/proxy/harness.js';
import { PYTHON, requireTool, run } from './tools.js';

const ir = await projectIr();
const reads = ir.operations.filter((o) => !o.mutating);
let ref: Reference;
let w: Watched;
let dir: string;
let cassette: string;
const key = () => ref.svc.demoKey!;

beforeAll(async () => {
  ref = await startReference({ events: 3, bookings: 30 }, { workers: 0 });
  dir = await mkdtemp(join(tmpdir(), 'evgen-proxy-interop-'));
  cassette = join(dir, 'traffic.jsonl');
  w = await watch(ref.svc.server.url, {
    level: 'evgen',
    secrets: (k) => Promise.resolve(k === key().apiKey ? key().secretKey : undefined),
    record: new CassetteWriter(cassette),
  });
}, 60_000);
afterAll(async () => {
  await w.proxy.close();
  await ref.stop();
  await rm(dir, { recursive: true, force: true });
});

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('zeep through the proxy', () => {
  it("calls every read over SOAP 1.1 and 1.2, gets the target's bytes, and sends nothing wrong", async () => {
    requireTool(PYTHON, 'python3-zeep');
    const values = await discoverConformanceValues({ url: ref.svc.server.url, ...key() });
    const callable = reads.filter((op) => op.parameters.every((p) => values[p.name] !== undefined));
    expect(callable.length).toBeGreaterThan(reads.length / 2);
    const calls = callable.map((op) => ({
      operation: op.name,
      params: Object.fromEntries(op.parameters.map((p) => [p.name, values[p.name]])),
      kinds: Object.fromEntries(op.parameters.map((p) => [p.name, p.scalar])),
    }));
    const input = join(dir, 'zeep.json');
    await writeFile(
      input,
      JSON.stringify({
        wsdl: `${w.proxy.url}${SERVICE.endpointPath}?wsdl`,
        apiKey: key().apiKey,
        secret: key().secretKey,
        calls,
      }),
    );
    const { code, stdout, stderr } = await run(PYTHON, [
      fileURLToPath(new URL('./zeep_client.py', import.meta.url)),
      input,
    ]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { calls: number; failures: string[]; digests: string[] };
    expect(out.failures).toEqual([]);
    expect(out.calls).toBe(2 * callable.length);
    await w.proxy.idle();
    expect(w.findings).toEqual([]);
    const recorded: string[] = [];
    for await (const { exchange } of readCassette(cassette))
      if (exchange.binding === 'soap11' || exchange.binding === 'soap12')
        recorded.push(sha(exchange.response.body!));
    expect([...out.digests].sort()).toEqual(recorded.sort());
    expect(w.proxy.report().routes.wsdl).toBeGreaterThanOrEqual(1);
  }, 120_000);
});

describe('curl through the proxy', () => {
  it('signed HTTP GET and POST get the bytes the target gives curl directly', async () => {
    requireTool('/usr/bin/curl', 'curl');
    const host = new URL(w.proxy.url).host;
    let last = Date.now();
    const headers = (operation: string) => {
      const ts = new Date((last = Math.max(last + 1, Date.now()))).toISOString();
      const sig = createHmac('sha1', key().secretKey)
        .update(operation + ts)
        .digest('base64');
      return ['-H', `APIKey: ${key().apiKey}`, '-H', `Timestamp: ${ts}`, '-H', `Signature: ${sig}`];
    };
    const curl = async (base: string, extra: string[], args: string[]) => {
      const file = join(dir, `curl-${last}.out`);
      const r = await run('/usr/bin/curl', [
        '-sS',
        '-o',
        file,
        '-w',
        '%{http_code} %{content_type}',
        ...extra,
        ...args.map((a) => a.replace('{base}', base)),
      ]);
      expect(r.code, r.stderr).toBe(0);
      return { head: r.stdout, body: await readFile(file) };
    };
    const endpoint = `{base}${SERVICE.endpointPath}`;
    for (const args of [
      () => [...headers('GetBookingDetails'), `${endpoint}/GetBookingDetails?bookingId=1`],
      () => [
        ...headers('GetBookingDetails'),
        '--data-urlencode',
        'bookingId=1',
        `${endpoint}/GetBookingDetails`,
      ],
      () => [...headers('GetSubClientCompanyList'), `${endpoint}/GetSubClientCompanyList`],
    ]) {
      const direct = await curl(ref.svc.server.url, ['-H', `Host: ${host}`], args());
      const proxied = await curl(w.proxy.url, [], args());
      expect(proxied.head).toBe(direct.head);
      expect(proxied.head).toMatch(/^200 text\/xml; charset=utf-8$/);
      expect(Buffer.compare(proxied.body, direct.body)).toBe(0);
    }
    await w.proxy.idle();
    expect(w.findings).toEqual([]);
  });
});
