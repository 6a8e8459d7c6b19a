// Clients nobody on the team wrote, against the reference service on 127.0.0.1: zeep, node-soap and
// PHP's SoapClient call every read operation over SOAP 1.1 and 1.2 (and one booking with its cancellation), curl
// calls every read operation over HTTP GET and POST, and xmllint validates every SOAP response
// body against the XSD in the served WSDL.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParamValues } from '@evgen/runtime';
import {
  XSI_XSD_DECLARATIONS,
  buildRequest,
  namespaceFor,
  parseSoapEnvelope,
  parseXml,
} from '@evgen/runtime/internal';
import { discoverConformanceValues } from '@evgen/event-management/conformance';
import { authScheme } from '@evgen/event-management/auth';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import { operations } from '@evgen/event-management/operations';
import type { IrOperation } from '../../src/generator/ir/model.js';
import { projectIr } from '../support/ir.js';
import { callPort } from '../support/node-soap.js';
import { startReference, type Reference } from '../integration/reference/harness.js';
import { PHP, PYTHON, requireTool, run } from './tools.js';

const ir = await projectIr();
const reads = ir.operations.filter((o) => !o.mutating);
let ref: Reference;
let dir: string;
let values: ParamValues;
let ns: string;
let last = Date.now();
const stamp = () => new Date((last = Math.max(last + 1, Date.now()))).toISOString();

beforeAll(async () => {
  ref = await startReference({ events: 12, bookings: 300 });
  dir = await mkdtemp(join(tmpdir(), 'evgen-interop-'));
  ns = namespaceFor(ref.svc.server.url, SERVICE.namespace);
  const key = ref.svc.demoKey!;
  values = await discoverConformanceValues({
    url: ref.svc.server.url,
    apiKey: key.apiKey,
    secretKey: key.secretKey,
  });
}, 60_000);
afterAll(async () => {
  await ref.stop();
  await rm(dir, { recursive: true, force: true });
});

const paramsOf = (op: IrOperation) =>
  Object.fromEntries(op.parameters.map((p) => [p.name, values[p.name]]));
const key = () => ref.svc.demoKey!;
const wsdlUrl = () => `${ref.svc.server.url}${SERVICE.endpointPath}?wsdl`;
const bookingParams = () => ({
  eventId: values.eventId,
  attendeeTypeId: values.attendeeTypeId,
  ticketTypeId: values.ticketTypeId,
  bookingStatusId: values.bookingStatusId,
  contactId: values.contactId,
});

describe('zeep (python3-zeep)', () => {
  it('calls every read operation over SOAP 1.1 and 1.2, and books and cancels', async () => {
    requireTool(PYTHON, 'python3-zeep');
    const input = join(dir, 'zeep.json');
    const calls = reads.map((op) => ({
      operation: op.name,
      params: paramsOf(op),
      kinds: Object.fromEntries(op.parameters.map((p) => [p.name, p.scalar])),
    }));
    await writeFile(
      input,
      JSON.stringify({
        wsdl: wsdlUrl(),
        apiKey: key().apiKey,
        secret: key().secretKey,
        calls,
        booking: bookingParams(),
      }),
    );
    const { code, stdout, stderr } = await run(PYTHON, [
      fileURLToPath(new URL('./zeep_client.py', import.meta.url)),
      input,
    ]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { calls: number; failures: string[] };
    expect(out.failures).toEqual([]);
    expect(out.calls).toBe(2 * (reads.length + 2));
    console.log(`zeep: ${out.calls} calls over SOAP 1.1 and 1.2`);
  }, 120_000);
});

describe("PHP's SoapClient (php-soap)", () => {
  it('calls every read operation over SOAP 1.1 and 1.2 from the served WSDL', async () => {
    requireTool(PHP, 'php-soap');
    const input = join(dir, 'php.json');
    const calls = reads.map((op) => ({
      operation: op.name,
      params: paramsOf(op),
      resultElement: op.result.kind === 'none' ? null : op.resultElement,
    }));
    await writeFile(
      input,
      JSON.stringify({
        wsdl: wsdlUrl(),
        namespace: ns,
        apiKey: key().apiKey,
        secret: key().secretKey,
        calls,
      }),
    );
    const { code, stdout, stderr } = await run(PHP, [
      fileURLToPath(new URL('./php_client.php', import.meta.url)),
      input,
    ]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { calls: number; failures: string[] };
    expect(out.failures).toEqual([]);
    expect(out.calls).toBe(2 * reads.length);
    console.log(`PHP SoapClient: ${out.calls} calls over SOAP 1.1 and 1.2`);
  }, 120_000);
});

describe('node-soap', () => {
  it('calls every read operation over SOAP 1.1 and 1.2', async () => {
    let calls = 0;
    for (const [port, options] of [
      ['ServiceAPISoap', {}],
      ['ServiceAPISoap12', { forceSoap12Headers: true }],
    ] as const) {
      const client = await soap.createClientAsync(wsdlUrl(), options);
      for (const op of reads) {
        const ts = stamp();
        client.clearSoapHeaders();
        client.addSoapHeader(
          `<AuthenticationHeader xmlns="${ns}"><Timestamp>${ts}</Timestamp><Operation>${op.name}</Operation><Signature>${createHmac(
            'sha1',
            key().secretKey,
          )
            .update(op.name + ts)
            .digest('base64')}</Signature><APIKey>${key().apiKey}</APIKey></AuthenticationHeader>`,
        );
        const result = await callPort(client, 'ServiceAPI', port, op.name, paramsOf(op));
        if (op.result.kind !== 'none')
          expect(
            typeof result === 'object' && result !== null && Object.keys(result),
            `${port} ${op.name}`,
          ).toContain(op.resultElement);
        calls++;
      }
    }
    expect(calls).toBe(2 * reads.length);
    console.log(`node-soap: ${calls} calls over SOAP 1.1 and 1.2`);
  }, 120_000);
});

describe('curl', () => {
  it('calls every read operation over HTTP GET and HTTP POST', async () => {
    requireTool('/usr/bin/curl', 'curl');
    let calls = 0;
    for (const op of reads) {
      for (const method of ['GET', 'POST'] as const) {
        const ts = stamp();
        const form = new URLSearchParams(
          Object.entries(paramsOf(op)).map(([k, v]) => [k, String(v)]),
        ).toString();
        const url = `${ref.svc.server.url}${SERVICE.endpointPath}/${op.name}${method === 'GET' && form ? `?${form}` : ''}`;
        const headers = [
          '-H',
          `APIKey: ${key().apiKey}`,
          '-H',
          `Timestamp: ${ts}`,
          '-H',
          `Signature: ${createHmac('sha1', key().secretKey)
            .update(op.name + ts)
            .digest('base64')}`,
        ];
        const args = [
          '-sS',
          '-w',
          '\n%{http_code} %{content_type}',
          ...headers,
          ...(method === 'POST' ? ['--data', form] : []),
          url,
        ];
        const { code, stdout, stderr } = await run('/usr/bin/curl', args);
        expect(code, stderr).toBe(0);
        const [body, status] = [
          stdout.slice(0, stdout.lastIndexOf('\n')),
          stdout.slice(stdout.lastIndexOf('\n') + 1),
        ];
        expect(status, `${method} ${op.name}: ${body.slice(0, 200)}`).toBe(
          '200 text/xml; charset=utf-8',
        );
        if (op.httpRoot) expect(parseXml(body).name).toBe(op.httpRoot);
        calls++;
      }
    }
    expect(calls).toBe(2 * reads.length);
    console.log(`curl: ${calls} calls over HTTP GET and POST`);
  }, 120_000);
});

describe('xmllint', () => {
  it('validates every SOAP response body of the reference service against the XSD of its WSDL', async () => {
    requireTool('/usr/bin/xmllint', 'libxml2-utils');
    requireTool('/usr/bin/xsltproc', 'xsltproc');
    await writeFile(join(dir, 'service.wsdl'), await (await fetch(wsdlUrl())).text());
    await writeFile(
      join(dir, 'schema.xsl'),
      `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:s="http://www.w3.org/2001/XMLSchema"><xsl:template match="/"><xsl:copy-of select="//s:schema"/></xsl:template></xsl:stylesheet>`,
    );
    expect(
      (
        await run('/usr/bin/xsltproc', [
          '-o',
          join(dir, 'schema.xsd'),
          join(dir, 'schema.xsl'),
          join(dir, 'service.wsdl'),
        ])
      ).code,
    ).toBe(0);
    const files: string[] = [];
    for (const op of reads) {
      const req = await buildRequest(
        {
          endpoint: `${ref.svc.server.url}${SERVICE.endpointPath}`,
          ns,
          apiKey: key().apiKey,
          secretKey: key().secretKey,
          auth: authScheme,
          timestamp: stamp(),
        },
        operations[op.name as keyof typeof operations] as never,
        paramsOf(op) as never,
        WIRE.bindings.find((b) => b.id === 'soap11')!,
      );
      const text = await (await fetch(req.url, req.init)).text();
      const payload = parseSoapEnvelope(text).payload!;
      // The Body's element as a document of its own, with the namespace declarations it inherits.
      const start = text.indexOf(`<${payload.name}`);
      const end = text.lastIndexOf('</soap:Body>');
      const file = join(dir, `${op.name}.xml`);
      await writeFile(
        file,
        text
          .slice(start, end)
          .replace(`<${payload.name} `, `<${payload.name}${XSI_XSD_DECLARATIONS} `),
      );
      files.push(file);
    }
    const { code, stderr } = await run('/usr/bin/xmllint', [
      '--noout',
      '--nonet',
      '--schema',
      join(dir, 'schema.xsd'),
      ...files,
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr.match(/ validates$/gm)?.length).toBe(reads.length);
    console.log(`xmllint: ${files.length} SOAP response bodies validate`);
  }, 120_000);
});
