// Runs --verify on rule-table cases in one child process (`node --import tsx`), so the generated
// packages load through Node's loader: under vitest each package went through vite's transform,
// three times slower for the whole table. Input: a JSON file of jobs; output: JSON on stdout.
import { readFile } from 'node:fs/promises';
import { diffSpecs } from '../../src/diff/diff.js';
import { loadVersion } from '../../src/diff/input.js';
import type { Severity } from '../../src/diff/model.js';
import { verifyChanges, type VerifyResult } from '../../src/diff/verify/index.js';
import { DIFF_CASES, editedSpec } from './diff-cases.js';
import { SPEC_DIR } from './ir.js';

export interface VerifyJob {
  readonly edit: string;
  /** Verify only this rule's changes, with `audience` claimed at `claim`. */
  readonly only?: { readonly rule: string; readonly audience: string; readonly claim: Severity };
}

export interface VerifyJobResult {
  readonly edit: string;
  readonly changes: readonly { rule: string; path: string; operations: readonly string[] }[];
  readonly callable: readonly string[];
  readonly result: VerifyResult;
  /** What new clients met at old servers that was not ok, one line per observation. */
  readonly back: readonly string[];
}

const jobs = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as VerifyJob[];
const project = await loadVersion(SPEC_DIR);
const out: VerifyJobResult[] = [];
for (const job of jobs) {
  const c = DIFF_CASES.find((x) => x.name === job.edit)!;
  const edited = await editedSpec(c);
  const common = c.common ? await editedSpec({ ...c, edits: [] }) : null;
  try {
    const other = await loadVersion(edited.dir);
    const unedited = common ? await loadVersion(common.dir) : project;
    const [base, head] = c.reverse ? [other, unedited] : [unedited, other];
    let changes = await diffSpecs(base, head);
    if (job.only) {
      const { rule, audience, claim } = job.only;
      changes = changes
        .filter((ch) => ch.rule === rule)
        .map((ch) => ({ ...ch, severities: { ...ch.severities, [audience]: claim } }));
    }
    const result = await verifyChanges(base, head, changes);
    out.push({
      edit: job.edit,
      changes: changes.map(({ rule, path, operations }) => ({ rule, path, operations })),
      callable: base.ir.operations.map((o) => o.name),
      result: { ...result, observations: result.observations.slice(0, 0) },
      back: result.observations
        .filter((o) => o.direction === 'new-client/old-server' && o.outcome !== 'ok')
        .map((o) => `${o.operation} ${o.binding} ${o.sample}: ${o.outcome} ${o.detail}`),
    });
  } finally {
    await edited.dispose();
    await common?.dispose();
  }
}
process.stdout.write(JSON.stringify(out));
