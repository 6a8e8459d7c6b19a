// The samples on every operation page are the real thing: each request, placeholders replaced,
// decodes with the operation's own decoders to the sample parameters; each response decodes to
// the sample result; and they carry this server's namespace and address.
import { describe, expect, it } from 'vitest';
import type { AnyOperationDef, XmlElement } from '@evgen/runtime';
import { XmlWriter, prettyXml, readSoapEnvelope, readXml } from '@evgen/runtime/internal';
import { SERVICE } from '@evgen/event-management/service';
import { helpPages } from '@evgen/event-management/help';
import { operations } from '@evgen/event-management/operations';
import {
  TEST_ADDRESS,
  pageSamples,
  renderTestPage,
  sampleBody,
  sampleToRequest,
} from '../../support/help.js';

const address = TEST_ADDRESS;
const ops: AnyOperationDef[] = Object.values(operations);

async function samplesOf(name: string) {
  return pageSamples((await renderTestPage(name, false))!);
}

describe.each(ops.map((op) => [op.name, op] as const))('%s samples', (name, op) => {
  const sample = helpPages.operations[name]!.sample;

  it('has a request and a response for each of the four bindings', async () => {
    const got = (await samplesOf(name)).map((s) => `${s.binding} ${s.part}`);
    expect(got).toEqual(
      ['soap11', 'soap12', 'httpGet', 'httpPost'].flatMap((b) => [`${b} request`, `${b} response`]),
    );
  });

  it('SOAP requests decode to the sample parameters, in this server namespace', async () => {
    for (const s of (await samplesOf(name)).filter(
      (x) => x.part === 'request' && x.binding.startsWith('soap'),
    )) {
      const req = sampleToRequest(s.text, name);
      expect(req.target).toBe(SERVICE.endpointPath);
      const d = readXml(req.body!);
      const { payload } = readSoapEnvelope(d);
      expect(d.ns(payload)).toBe(address.namespace);
      expect(op.decodeSoapRequest(d, payload, address.namespace)).toEqual(sample.params);
    }
  });

  it('HTTP requests decode to the sample parameters', async () => {
    for (const s of (await samplesOf(name)).filter(
      (x) => x.part === 'request' && x.binding.startsWith('http'),
    )) {
      const req = sampleToRequest(s.text, name);
      const url = new URL(req.target, address.baseUrl);
      expect(url.pathname).toBe(`${SERVICE.endpointPath}/${name}`);
      const form = req.method === 'GET' ? url.searchParams : new URLSearchParams(req.body ?? '');
      expect(op.decodeHttpRequest(form)).toEqual(sample.params);
    }
  });

  it('responses decode to the sample result', async () => {
    for (const s of (await samplesOf(name)).filter((x) => x.part === 'response')) {
      const body = sampleBody(s.text);
      if (s.binding === 'soap11' || s.binding === 'soap12') {
        const d = readXml(body);
        const { payload } = readSoapEnvelope(d);
        expect(op.decodeSoapResponse(d, payload, address.namespace)).toEqual(sample.result);
      } else {
        const doc = body === '' ? undefined : readXml(body);
        expect(op.decodeHttpResponse(doc, address.namespace)).toEqual(sample.result);
      }
    }
  });
});

describe('prettyXml', () => {
  it.each([
    { given: '<a><b>1</b><c/></a>', want: '<a>\n  <b>1</b>\n  <c/>\n</a>' },
    {
      given: '<?xml version="1.0"?><a x="1>2"><b></b></a>',
      want: '<?xml version="1.0"?>\n<a x="1>2">\n  <b></b>\n</a>',
    },
    {
      given: '<a><b><c>x &amp; y</c></b></a>',
      want: '<a>\n  <b>\n    <c>x &amp; y</c>\n  </b>\n</a>',
    },
    {
      given: '<p:a xmlns:p="u"><p:b xsi:nil="true"/></p:a>',
      want: '<p:a xmlns:p="u">\n  <p:b xsi:nil="true"/>\n</p:a>',
    },
  ])('indents $given', ({ given, want }) => {
    expect(prettyXml(given)).toBe(want);
  });

  // Text of an element that holds elements is the whitespace between them: not content.
  const content = (e: XmlElement): XmlElement => ({
    ...e,
    text: e.children.length > 0 && e.text.trim() === '' ? '' : e.text,
    children: e.children.map(content),
  });
  const tree = (xml: string): XmlElement => content(readXml(xml).element(0));
  it('adds only whitespace between elements: every sample reads as the compact XML does', () => {
    for (const op of ops) {
      const { result } = helpPages.operations[op.name]!.sample;
      // The HTTP document is the richest shape; an operation without a result writes nothing.
      const w = new XmlWriter();
      op.encodeHttpResponse(result, address.namespace, w);
      const compact = w.toString();
      if (compact === '') continue;
      expect(tree(prettyXml(compact)), op.name).toEqual(tree(compact));
    }
  });
});
