// A change of spec/conformance.yaml (or spec/gaps.yaml) is reported at the entry that changed, one
// change per entry, not at line 1 of the file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffSpecs } from '../../../src/diff/diff.js';
import { loadVersion, type SpecVersion } from '../../../src/diff/input.js';
import { SPEC_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

let project: SpecVersion;
beforeAll(async () => {
  project = await loadVersion(SPEC_DIR);
});
afterAll(removeSpecCopies);

const CONF = 'conformance.yaml';
const cases: { given: string; edits: SpecEdit[]; want: { path: string; line: string }[] }[] = [
  {
    given: 'a value option',
    edits: [{ file: CONF, from: 'option: series-value', to: 'option: series' }],
    want: [{ path: 'conformance.values.seriesValue', line: '{ name: seriesValue,' }],
  },
  {
    given: 'a source',
    edits: [
      {
        file: CONF,
        from: 'items: Events/EventModel, yields: { eventId: Event/EventId }',
        to: 'items: Events/EventModel, yields: { eventId: Event/EventCapacity }',
      },
    ],
    want: [
      {
        path: 'conformance.sources.EventProfileSearch',
        line: '- { operation: EventProfileSearch,',
      },
    ],
  },
  {
    given: 'a check family and a hostile limit',
    edits: [
      {
        file: CONF,
        from: 'httpShapes: { level: evgen, source: http-note-a }',
        to: 'httpShapes: { level: document, source: http-note-a }',
      },
      { file: CONF, from: '    depth: 100000', to: '    depth: 5000' },
    ],
    want: [
      { path: 'conformance.checks.httpShapes', line: '    httpShapes:' },
      { path: 'conformance.hostile.depth', line: '    depth: 5000' },
    ],
  },
];

describe('CONFORMANCE_CHANGED names the entry and its line', () => {
  for (const c of cases)
    it(c.given, async () => {
      const dir = await specCopy(c.edits);
      const changes = (await diffSpecs(project, await loadVersion(dir))).filter(
        (x) => x.rule === 'CONFORMANCE_CHANGED',
      );
      const lines = (await readFile(join(dir, CONF), 'utf8')).split('\n');
      expect(changes.map((x) => [x.path, x.location.line])).toEqual(
        c.want.map((w) => [w.path, lines.findIndex((l) => l.includes(w.line)) + 1]),
      );
    });
});

describe('a change of spec/gaps.yaml names the gap and its line', () => {
  it('one DOC_CHANGED per decision changed, at its entry', async () => {
    const dir = await specCopy([
      { file: 'gaps.yaml', from: 'decision: WebsiteModel has', to: 'decision: WebsiteModel holds' },
    ]);
    const changes = (await diffSpecs(project, await loadVersion(dir))).filter((x) =>
      x.location.file.endsWith('/gaps.yaml'),
    );
    const line =
      (await readFile(join(dir, 'gaps.yaml'), 'utf8'))
        .split('\n')
        .findIndex((l) => l.includes('- id: website-model')) + 1;
    expect(changes.map((x) => [x.rule, x.path, x.location.line])).toEqual([
      ['DOC_CHANGED', 'gaps.website-model', line],
    ]);
  });
});
