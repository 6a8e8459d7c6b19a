// The pages say what the spec says: every operation on the service page, in the document's order
// and linked; each operation page with its parameters, result shape, faults and gap decisions; no
// page over 100 KB; text from requests never becomes markup.
import { describe, expect, it } from 'vitest';
import { renderOperationPage } from '@evgen/runtime/internal';
import { SERVICE } from '@evgen/event-management/service';
import { helpPages } from '@evgen/event-management/help';
import { operationGaps } from '../../../src/generator/views/help-view.js';
import {
  HELP_SERVICE,
  OPERATION_NAMES,
  TEST_ADDRESS,
  renderTestPage,
  testSite,
} from '../../support/help.js';
import { projectIr } from '../../support/ir.js';

const ir = await projectIr();
const address = TEST_ADDRESS;
const site = testSite;
const page = async (name: string, testForms = true) => (await renderTestPage(name, testForms))!;

describe('service page', () => {
  const html = helpPages.service(site(true));

  it('links every operation of the spec, in the document order', () => {
    const linked = [...html.matchAll(/<a href="ServiceAPI\.asmx\?op=(\w+)">/g)].map((m) => m[1]);
    expect(linked).toEqual(ir.operations.map((o) => o.name));
    expect(OPERATION_NAMES).toEqual(ir.operations.map((o) => o.name));
  });

  it.each([
    { what: 'title', want: ir.service.title },
    { what: 'version', want: `<dd>${ir.service.version}</dd>` },
    { what: 'endpoint', want: `<code>${address.baseUrl}${SERVICE.endpointPath}</code>` },
    { what: 'namespace', want: `<code>${address.namespace}</code>` },
    { what: 'WSDL link', want: '<a href="ServiceAPI.asmx?wsdl">' },
    { what: 'gaps register link', want: '<a href="ServiceAPI.asmx?gaps">' },
  ])('shows the $what', ({ want }) => {
    expect(html).toContain(want);
  });

  it('gives each operation its purpose and marks the ones that change data', () => {
    for (const op of ir.operations) {
      const row = html.match(
        new RegExp(`<tr><th scope="row"><a href="[^"]*op=${op.name}">.*</tr>`),
      )?.[0];
      expect(row, op.name).toContain(op.docs[0]!.replace(/'/g, '&#39;'));
      expect(row?.includes('changes data'), op.name).toBe(op.mutating);
    }
  });
});

describe('operation pages', () => {
  it.each(ir.operations.map((op) => [op.name, op] as const))('%s', async (name, op) => {
    const html = await page(name);
    for (const p of op.parameters)
      expect(html).toContain(`<code>${p.name}</code></th><td>${p.scalar}`);
    if (op.result.kind === 'none') expect(html).toContain('No result');
    else expect(html).toContain(`&lt;${op.resultElement}&gt; holds`);
    for (const f of ir.faults) expect(html).toContain(`<code>${f.code}</code>`);
    for (const id of operationGaps(ir, op)) expect(html).toContain(`#gap-${id}">${id}</a>`);
    expect(html).toContain(`data-operation="${name}"`);
    expect(html.includes('data-mutating="true"')).toBe(op.mutating);
    expect(html.includes('This operation changes data.')).toBe(op.mutating);
    expect(html.includes('This operation only reads')).toBe(!op.mutating);
  });

  it('says beside the samples how to sign them: the recipe, the window and the replay rule', async () => {
    const auth = new Map(ir.auth.fields.map((f) => [f.name, f.docs.join(' ')]));
    for (const op of ir.operations) {
      const html = await page(op.name);
      const samples = html.slice(html.indexOf('<h2 id="samples">'));
      const signing = samples.slice(
        samples.indexOf('<h3 id="signing">'),
        samples.indexOf('<h3 id="sample-'),
      );
      expect(signing, op.name).toContain(
        `The <code>Operation</code> value is <code>${op.name}</code>`,
      );
      expect(signing).toContain(`<code>&lt;TIMESTAMP&gt;</code>: ${auth.get('Timestamp')}`);
      expect(signing).toContain(`<code>&lt;SIGNATURE&gt;</code>: ${auth.get('Signature')}`);
      expect(signing).toContain(`within ±${ir.auth.clockSkewSeconds} s of its clock`);
      expect(signing).toContain(
        'refuses one it has already accepted for the same API key and operation',
      );
      expect(signing).toContain('<a href="ServiceAPI.asmx#authentication">Authentication</a>');
      // every request sample points at it
      const requests = [
        ...samples.matchAll(/<p>Request( \(signed <a href="#signing">as above<\/a>\))?<\/p>/g),
      ];
      expect(requests.map((m) => m[1] !== undefined)).toEqual(ir.bindings.map(() => true));
    }
  });

  it('shows the result type and every type it reaches, with nullability and lists', async () => {
    const html = await page('GetBooking');
    for (const t of ['BookingResponse', 'AttendeeResponse', 'CustomFieldValueResponse'])
      expect(html).toContain(`<h3 id="type-${t}">${t}</h3>`);
    expect(html).toContain(
      '<code>Attendees</code></th><td>list of <a href="#type-AttendeeResponse">AttendeeResponse</a> (items &lt;AttendeeResponse&gt;)</td>',
    );
    expect(html).toMatch(/<code>GrossCost<\/code><\/th><td>decimal \(2 places\)<\/td><td>no<\/td>/);
  });

  it('carries the test form only when test forms are on', async () => {
    expect(await page('GetBooking', true)).toContain('<form class="test-form"');
    expect(await page('GetBooking', true)).toContain(
      '<script type="module" src="ServiceAPI.asmx?client.js">',
    );
    const off = await page('GetBooking', false);
    expect(off).not.toContain('<form');
    expect(off).not.toContain('<script');
  });

  it('has inputs without names, so a native submission could carry no secret', async () => {
    for (const name of OPERATION_NAMES)
      expect(await page(name)).not.toMatch(/<(input|select)[^>]* name=/);
  });

  it('is unknown for names not in the spec', async () => {
    expect(
      await renderOperationPage(helpPages, HELP_SERVICE, 'toString', address, site(true)),
    ).toBeUndefined();
    expect(
      await renderOperationPage(helpPages, HELP_SERVICE, 'getBooking', address, site(true)),
    ).toBeUndefined();
  });
});

describe('every page', () => {
  it('is under 100 KB (the client bundle is served apart)', async () => {
    const pages = [
      helpPages.service(site(true)),
      helpPages.gaps(site(true)),
      helpPages.notFound(site(true), 'X'),
      ...(await Promise.all(OPERATION_NAMES.map((n) => page(n)))),
    ];
    for (const p of pages) expect(new TextEncoder().encode(p).byteLength).toBeLessThan(100 * 1024);
  });

  it('loads nothing from elsewhere: no external URL in src or href', async () => {
    for (const p of [helpPages.service(site(true)), await page('GetBooking')])
      expect(p).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});

describe('gaps register', () => {
  it('lists every gap with what the document says and the decision', () => {
    const html = helpPages.gaps(site(true));
    const ids = [...html.matchAll(/<section id="gap-([\w-]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(ir.gaps.map((g) => g.id));
  });
});
