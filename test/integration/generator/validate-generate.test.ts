// validate accepts exactly what generate builds: spec edits that validate accepts generate code
// that type-checks (with unused imports counted as errors, so import lists follow use), where
// before a decimal parameter failed inside generate with "Cannot find name 'Decimal'" and a field
// named `delete` failed inside prettier.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFiles } from '../../../src/generator/pipeline.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { typecheckGenerated } from '../../../src/generator/typecheck.js';
import { PROJECT_ROOT, TEMPLATES_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

afterAll(removeSpecCopies);

const cases: { name: string; given: SpecEdit[]; want: string[] }[] = [
  {
    name: 'a decimal parameter with its scale',
    given: [
      {
        file: 'operations.yaml',
        from: '{ name: roadshowId, type: int }',
        to: '{ name: roadshowId, type: decimal, scale: 2 }',
      },
    ],
    want: [
      "paramDecimal(form, 'roadshowId', 2)",
      "writeDecimal(v.roadshowId, 2, 'GetTicketTypesByRoadshowId.roadshowId')",
    ],
  },
  {
    name: 'fields named like reserved words and the decoders’ own variables',
    given: [
      {
        file: 'types/booking.yaml',
        from: '      - { name: LeadAttendeeReference, type: string }',
        to: [
          '      - { name: LeadAttendeeReference, type: string }',
          '      - { name: delete, type: string }',
          '      - { name: class, type: int, optional: true }',
          '      - { name: el, type: boolean }',
          '      - { name: c, type: string, nullable: true }',
          '      - { name: ns, type: dateTime }',
        ].join('\n'),
      },
    ],
    want: ['delete: delete$', '...(class$ === undefined ? undefined : { class: class$ })'],
  },
  {
    name: 'a new type used only as the item of a list result, and a dateTime list',
    given: [
      {
        file: 'types/booking.yaml',
        from: 'types:\n',
        to: 'types:\n  - name: Slot\n    doc: A slot.\n    section: Test\n    fields:\n      - { name: Days, type: list, of: dateTime, item: dateTime }\n\n',
      },
      {
        file: 'operations.yaml',
        from: 'result: { kind: list, of: ShowResponse, item: ShowResponse, text: list of ShowResponse }',
        to: 'result: { kind: list, of: Slot, item: Slot, text: list of Slot }',
      },
    ],
    want: ['decodeSlot', 'export interface Slot'],
  },
];

describe('what validate accepts, generate builds', () => {
  for (const { name, given, want } of cases)
    it(
      name,
      async () => {
        const specDir = await specCopy(given);
        await expect(loadSpec(specDir)).resolves.toBeDefined();
        const files = await generateFiles({ specDir, templatesDir: TEMPLATES_DIR });
        const text = [...files.values()].join('\n');
        for (const w of want) expect(text).toContain(w);
        expect(typecheckGenerated(files, join(PROJECT_ROOT, 'generated'), PROJECT_ROOT)).toEqual(
          [],
        );
      },
      120_000,
    );
});
