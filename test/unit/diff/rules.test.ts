// Every rule of `evgen diff` against a real spec edit: the rules raised and their severity per
// audience. The catalogue cannot grow a rule without a case here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffSpecs } from '../../../src/diff/diff.js';
import { loadVersion, type SpecVersion } from '../../../src/diff/input.js';
import { RULE_TABLE } from '../../../src/diff/rules.js';
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

describe('evgen diff rules', () => {
  for (const c of DIFF_CASES)
    it(`${c.name} → ${Object.keys(c.want).join(', ')}`, async () => {
      const edited = await editedSpec(c);
      disposers.push(edited.dispose);
      const other = await loadVersion(edited.dir);
      const common = c.common ? await editedSpec({ ...c, edits: [] }) : null;
      if (common) disposers.push(common.dispose);
      const unedited = common ? await loadVersion(common.dir) : project;
      const [base, head] = c.reverse ? [other, unedited] : [unedited, other];
      const changes = await diffSpecs(base, head);
      const got = Object.fromEntries(
        changes.map((ch) => [
          ch.rule,
          [ch.severities['wire-lax'], ch.severities['wire-strict'], ch.severities.typescript],
        ]),
      );
      expect(got).toEqual(c.want);
    });

  it('has a case for every rule of the catalogue', () => {
    const covered = new Set(DIFF_CASES.flatMap((c) => Object.keys(c.want)));
    expect(RULE_TABLE.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it('finds no change between a spec and itself', async () => {
    expect(await diffSpecs(project, project)).toEqual([]);
  });
});
