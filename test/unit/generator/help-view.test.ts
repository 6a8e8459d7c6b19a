// The help view's decisions: escaping for HTML inside template literals, the document's
// placeholders, and which gap decisions touch an operation (a gap named that does not exist, or a
// note-A operation naming no gap, stops generation).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { html, operationGaps, placeholder } from '../../../src/generator/views/help-view.js';
import { SPEC_DIR, projectIr } from '../../support/ir.js';

const ir = await projectIr();
const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

describe('html()', () => {
  it.each([
    { given: 'a < b && c > "d"', want: 'a &lt; b &amp;&amp; c &gt; &quot;d&quot;' },
    { given: "it's", want: 'it&#39;s' },
    { given: 'tick ` and ${x} and \\', want: 'tick \\` and \\${x} and \\\\' },
  ])('$given', ({ given, want }) => {
    expect(html(given)).toBe(want);
  });
});

describe('placeholder()', () => {
  it.each([
    { given: 'APIKey', want: '<API_KEY>' },
    { given: 'Timestamp', want: '<TIMESTAMP>' },
    { given: 'Signature', want: '<SIGNATURE>' },
  ])(
    '$given → $want (the document: "Placeholders for these values are <API_KEY>, <SIGNATURE> and <TIMESTAMP>")',
    ({ given, want }) => {
      expect(placeholder(given)).toBe(want);
    },
  );
});

describe('operationGaps()', () => {
  const op = (name: string) => ir.operations.find((o) => o.name === name)!;

  it.each([
    { given: 'CancelBooking', want: ['http-note-a', 'cancel-booking-effect'] },
    { given: 'GetCalendarEventsByDateRange', want: ['include-archived'] },
    {
      given: 'EventProfileSearch',
      want: ['search-query-syntax', 'website-model', 'reference-element-types'],
    },
    { given: 'GetContact2', want: ['contact-password'] },
  ])('$given touches $want', ({ given, want }) => {
    expect(operationGaps(ir, op(given))).toEqual(expect.arrayContaining(want));
  });

  it('names the HTTP-shape gap of every note-A operation', () => {
    for (const o of ir.operations.filter((x) => !x.httpShapeShown))
      expect(operationGaps(ir, o)[0], o.name).toBe(o.httpShapeGap);
  });

  it('stops on a gap a text names that does not exist', () => {
    const broken = { ...op('GetShows'), docs: ['All shows (see gap no-such-gap).'] };
    expect(() => operationGaps(ir, broken)).toThrow('GetShows: no gap "no-such-gap"');
  });

  it('the spec refuses http.shown false without a gap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evgen-spec-'));
    temps.push(dir);
    await cp(SPEC_DIR, dir, { recursive: true });
    const file = join(dir, 'operations.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace('http: { shown: false, gap: http-note-a }', 'http: { shown: false }'),
    );
    const error = await loadSpec(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toContain(
      'operation "CancelAttendee" has http.shown false but names no gap',
    );
  });
});
