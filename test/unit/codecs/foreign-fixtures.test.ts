// One fixture per operation and binding family, written the way other SOAP stacks write them: the
// generated decoders must give back exactly the value that was written.
import { describe, expect, it } from 'vitest';
import { readSoapEnvelope, readXml } from '@evgen/runtime/internal';
import { operations } from '@evgen/event-management/operations';
import type { IrOperation } from '../../../src/generator/ir/model.js';
import { sampleResult, typeArbitraries } from '../../support/arbitraries.js';
import { makeForeignWriter, type Style } from '../../support/foreign-xml.js';
import { projectIr } from '../../support/ir.js';

const NS = 'https://events.example.com/API/1_0/SOAP/';
const ir = await projectIr();
const arbs = typeArbitraries(ir);
const table = operations as unknown as Record<string, (typeof operations)['GetBooking']>;

const ENVELOPES = {
  'SOAP 1.1 (soap-env:/ns0:)': {
    env: 'http://schemas.xmlsoap.org/soap/envelope/',
    envPrefix: 'soap-env',
    style: { prefix: 'ns0', reverse: true, noise: true },
  },
  'SOAP 1.1 (SOAP-ENV:/ns1:)': {
    env: 'http://schemas.xmlsoap.org/soap/envelope/',
    envPrefix: 'SOAP-ENV',
    style: { prefix: 'ns1', reverse: false, noise: false },
  },
  'SOAP 1.2 (S: + default namespace)': {
    env: 'http://www.w3.org/2003/05/soap-envelope',
    envPrefix: 'S',
    style: { prefix: '', reverse: true, noise: true },
  },
} as const;

function resultXml(op: IrOperation, value: unknown, style: Style): string {
  const w = makeForeignWriter(ir, style);
  const r = op.result;
  if (r.kind === 'none') return '';
  if (r.kind === 'value') return w.value(r.value, value);
  return (value as unknown[])
    .map((i) => `<${w.q(r.itemElement)}>${w.value(r.value, i)}</${w.q(r.itemElement)}>`)
    .join('\n');
}

describe.each(ir.operations.map((op, i) => ({ op, seed: 1000 + i })))(
  '$op.name',
  ({ op, seed }) => {
    const def = table[op.name]!;
    const value = sampleResult(arbs, op.result, seed);

    for (const [label, { env, envPrefix, style }] of Object.entries(ENVELOPES)) {
      it(`decodes a ${label} response`, () => {
        const w = makeForeignWriter(ir, style);
        const inner =
          op.result.kind === 'none'
            ? ''
            : `<${w.q(op.resultElement)}>${resultXml(op, value, style)}</${w.q(op.resultElement)}>`;
        const xml = `<?xml version="1.0" encoding="utf-8"?>
<${envPrefix}:Envelope xmlns:${envPrefix}="${env}">
  <${envPrefix}:Body>
    <${w.q(op.responseElement)}${w.declare(NS)}>${inner}</${w.q(op.responseElement)}>
  </${envPrefix}:Body>
</${envPrefix}:Envelope>`;
        const d = readXml(xml);
        expect(def.decodeSoapResponse(d, readSoapEnvelope(d).payload, NS)).toEqual(value);
      });
    }

    it('decodes an HTTP GET/POST response document', () => {
      const style = { prefix: '', reverse: false, noise: true };
      const w = makeForeignWriter(ir, style);
      const xml =
        op.httpRoot === null
          ? ''
          : `<?xml version="1.0" encoding="utf-8"?>\n<${op.httpRoot}${w.declare(NS)}>${resultXml(op, value, style)}</${op.httpRoot}>`;
      expect(def.decodeHttpResponse(xml === '' ? undefined : readXml(xml), NS)).toEqual(value);
    });
  },
);
