// --verify on every case of the rule table: the base version's generated client against a stub
// server of the head version (and back), over every binding, for the operations each change
// touches. A wire-lax verdict the generated code contradicts fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffSpecs } from '../../../src/diff/diff.js';
import { loadVersion, type SpecVersion } from '../../../src/diff/input.js';
import { verifyChanges } from '../../../src/diff/verify/index.js';
import { DIFF_CASES, editedSpec } from '../../support/diff-cases.js';
import { SPEC_DIR } from '../../support/ir.js';

let project: SpecVersion;
const disposers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  project = await loadVersion(SPEC_DIR);
});
afterAll(async () => {
  for (const d of disposers) await d();
});

describe('evgen diff --verify', () => {
  for (const c of DIFF_CASES)
    it(
      `${c.name}: ${c.generatorIgnores ? `contradicted (${c.generatorIgnores})` : 'no verdict contradicted'}`,
      { timeout: 120_000 },
      async () => {
        const edited = await editedSpec(c);
        disposers.push(edited.dispose);
        const other = await loadVersion(edited.dir);
        const [base, head] = c.reverse ? [other, project] : [project, other];
        const changes = await diffSpecs(base, head);
        const result = await verifyChanges(base, head, changes);
        if (c.generatorIgnores)
          expect(result.disagreements.map((d) => d.rule)).toEqual(Object.keys(c.want));
        else expect(result.disagreements).toEqual([]);
        // Every change on an operation old clients can call was observed.
        const callable = new Set(base.ir.operations.map((o) => o.name));
        result.changes.forEach((checked, i) => {
          if (changes[i]!.operations.some((op) => callable.has(op)))
            expect(checked.verdict, checked.path).not.toBe('not observed');
        });
      },
    );
});

describe('evgen diff --verify holds wrong verdicts against behaviour', () => {
  const cases = [
    {
      given: { edit: 'required field removed', rule: 'FIELD_NO_REMOVE', claim: 'safe' as const },
      want: 'contradicted',
    },
    {
      given: {
        edit: 'required field removed',
        rule: 'FIELD_NO_REMOVE',
        claim: 'dangerous' as const,
      },
      want: 'contradicted',
    },
    {
      given: {
        edit: 'optional field added',
        rule: 'FIELD_ADDED_OPTIONAL',
        claim: 'breaking' as const,
      },
      want: 'contradicted',
    },
    {
      given: { edit: 'field made nullable', rule: 'FIELD_NULLABLE_ADDED', claim: 'safe' as const },
      want: 'contradicted',
    },
    {
      given: {
        edit: 'field made nullable',
        rule: 'FIELD_NULLABLE_ADDED',
        claim: 'dangerous' as const,
      },
      want: 'confirmed',
    },
  ];
  for (const { given, want } of cases)
    it(`${given.edit}: ${given.rule} claimed ${given.claim} for wire-lax → ${want}`, async () => {
      const edited = await editedSpec(DIFF_CASES.find((c) => c.name === given.edit)!);
      disposers.push(edited.dispose);
      const head = await loadVersion(edited.dir);
      // Only the claimed change, so no other change on the operation masks it.
      const changes = (await diffSpecs(project, head))
        .filter((c) => c.rule === given.rule)
        .map((c) => ({ ...c, severities: { ...c.severities, 'wire-lax': given.claim } }));
      const result = await verifyChanges(project, head, changes);
      expect(result.changes.map((c) => [c.rule, c.verdict])).toEqual([[given.rule, want]]);
    });
});
