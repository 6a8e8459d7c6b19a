// The generated WSDL as third-party tools see it: zeep lists every operation with its signature,
// and xmllint validates an encoded response of every operation against the WSDL's XSD.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XSI_XSD_DECLARATIONS, xmlString } from '@evgen/runtime/internal';
import { operations } from '@evgen/event-management/operations';
import { renderWsdl } from '@evgen/event-management/wsdl';
import { sampleResult, typeArbitraries } from '../support/arbitraries.js';
import { projectIr } from '../support/ir.js';
import { PYTHON, requireTool, run } from './tools.js';

const NS = 'https://127.0.0.1:8080/API/1_0/SOAP/';
const ADDRESS = 'http://127.0.0.1:8080/API/1_0/SOAP/ServiceAPI.asmx';
const ir = await projectIr();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-wsdl-'));
  await writeFile(join(dir, 'service.wsdl'), renderWsdl(ADDRESS, NS));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('zeep', () => {
  it('lists every operation with its signature on both SOAP ports', async () => {
    requireTool(PYTHON, 'python3-zeep');
    const { code, stdout, stderr } = await run(PYTHON, ['-m', 'zeep', join(dir, 'service.wsdl')]);
    expect(code, stderr).toBe(0);
    for (const port of ['ServiceAPISoap', 'ServiceAPISoap12']) {
      const section = stdout.split(`Port: ${port} `)[1]!.split('Port: ')[0]!;
      for (const op of ir.operations) {
        const xsd = (k: string) => ir.primitives.find((p) => p.name === k)!.xsd;
        const params = op.parameters.map((p) => `${p.name}: xsd:${xsd(p.scalar)}`).join(', ');
        expect(section, `${port} ${op.name}`).toContain(
          `${op.name}(${params ? `${params}, ` : ''}_soapheaders={AuthenticationHeader: ns0:AuthenticationHeader})`,
        );
      }
      console.log(`zeep ${port}: ${ir.operations.length} operations listed`);
    }
  });
});

describe('xmllint', () => {
  const arbs = typeArbitraries(ir);
  const sample = (i: number) => {
    return sampleResult(arbs, ir.operations[i]!.result, i, { minLength: 1, maxLength: 2 });
  };

  it('validates an encoded SOAP response of every operation against the WSDL schema', async () => {
    requireTool('/usr/bin/xmllint', 'libxml2-utils');
    requireTool('/usr/bin/xsltproc', 'xsltproc');
    // An XSLT copy keeps the namespace declarations the schema inherits from wsdl:definitions.
    await writeFile(
      join(dir, 'schema.xsl'),
      `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:s="http://www.w3.org/2001/XMLSchema"><xsl:template match="/"><xsl:copy-of select="//s:schema"/></xsl:template></xsl:stylesheet>`,
    );
    const xslt = await run('/usr/bin/xsltproc', [
      '-o',
      join(dir, 'schema.xsd'),
      join(dir, 'schema.xsl'),
      join(dir, 'service.wsdl'),
    ]);
    expect(xslt.code, xslt.stderr).toBe(0);
    const files: string[] = [];
    for (const [i, op] of ir.operations.entries()) {
      const def = (operations as unknown as Record<string, (typeof operations)['GetBooking']>)[
        op.name
      ]!;
      // The response element as it sits in the SOAP Body, with xsi declared for nil values.
      const xml = xmlString((out) => def.encodeSoapResponse(sample(i) as never, NS, out)).replace(
        `<${op.responseElement} `,
        `<${op.responseElement}${XSI_XSD_DECLARATIONS} `,
      );
      const file = join(dir, `${op.name}.xml`);
      await writeFile(file, xml);
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
    expect(stderr.match(/ validates$/gm)?.length).toBe(ir.operations.length);
    console.log(`xmllint: ${files.length} encoded responses validate against the WSDL schema`);
  });

  it('refuses a response that breaks the schema (the check is not vacuous)', async () => {
    const bad = join(dir, 'bad.xml');
    await writeFile(
      bad,
      `<GetBookingDetailsResponse xmlns="${NS}"><GetBookingDetailsResult><BookingId>abc</BookingId></GetBookingDetailsResult></GetBookingDetailsResponse>`,
    );
    const { code, stderr } = await run('/usr/bin/xmllint', [
      '--noout',
      '--nonet',
      '--schema',
      join(dir, 'schema.xsd'),
      bad,
    ]);
    expect(code).not.toBe(0);
    expect(stderr).toContain('BookingId');
  });
});
