// --verify on every case of the rule table: the base version's generated client against a stub
// server of the head version (and back) over every binding, and base code compiled against the
// head package, for the operations each change touches. A wire-lax or typescript verdict the
// generated code contradicts fails here. The cases run in one child process (see verify-runner).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIFF_CASES } from '../../support/diff-cases.js';
import { PROJECT_ROOT } from '../../support/ir.js';
import type { VerifyJob, VerifyJobResult } from '../../support/verify-runner.js';

const TS_FIELD = 'field renamed in TypeScript only (xmlName keeps the element)';
const WIRE_FIELD = 'field renamed on the wire only (the TypeScript name stays)';
const TS_PARAM = 'parameter renamed in TypeScript only';
const WIRE_PARAM = 'parameter renamed on the wire only';

// [edit, rule, audience, claimed severity, verdict]: wrong claims must be contradicted.
const CLAIMS = [
  ['required field removed', 'FIELD_NO_REMOVE', 'wire-lax', 'safe', 'contradicted'],
  ['required field removed', 'FIELD_NO_REMOVE', 'wire-lax', 'dangerous', 'contradicted'],
  ['optional field added', 'FIELD_ADDED_OPTIONAL', 'wire-lax', 'breaking', 'contradicted'],
  ['field made nullable', 'FIELD_NULLABLE_ADDED', 'wire-lax', 'safe', 'contradicted'],
  ['field made nullable', 'FIELD_NULLABLE_ADDED', 'wire-lax', 'dangerous', 'confirmed'],
  ['required field removed', 'FIELD_NO_REMOVE', 'typescript', 'safe', 'contradicted'],
  ['optional field added', 'FIELD_ADDED_OPTIONAL', 'typescript', 'breaking', 'contradicted'],
  ['authentication header renamed', 'AUTH_NO_CHANGE', 'typescript', 'breaking', 'contradicted'],
  ['operation added', 'OPERATION_ADDED', 'typescript', 'dangerous', 'confirmed'],
  ['paging removed', 'PAGING_NO_REMOVE', 'typescript', 'safe', 'contradicted'],
  // A TypeScript-only rename is safe on the wire and breaking for TypeScript; a wire rename the
  // other way round: claimed otherwise, verify says so.
  [TS_FIELD, 'FIELD_TS_RENAMED', 'wire-lax', 'breaking', 'contradicted'],
  [TS_FIELD, 'FIELD_TS_RENAMED', 'typescript', 'safe', 'contradicted'],
  [WIRE_FIELD, 'FIELD_XML_RENAMED', 'wire-lax', 'safe', 'contradicted'],
  [WIRE_FIELD, 'FIELD_XML_RENAMED', 'typescript', 'breaking', 'contradicted'],
  [TS_PARAM, 'PARAMETER_TS_RENAMED', 'wire-lax', 'breaking', 'contradicted'],
  [WIRE_PARAM, 'PARAMETER_XML_RENAMED', 'wire-lax', 'safe', 'contradicted'],
] as const;

const jobs: VerifyJob[] = [
  ...DIFF_CASES.map((c) => ({ edit: c.name })),
  ...CLAIMS.map(([edit, rule, audience, claim]) => ({ edit, only: { rule, audience, claim } })),
];
let results: VerifyJobResult[];

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-verify-jobs-'));
  try {
    await writeFile(join(dir, 'jobs.json'), JSON.stringify(jobs));
    const { stdout } = await promisify(execFile)(
      'node',
      ['--import', 'tsx', 'test/support/verify-runner.ts', join(dir, 'jobs.json')],
      { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 },
    );
    results = JSON.parse(stdout) as VerifyJobResult[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 600_000);

describe('evgen diff --verify', () => {
  DIFF_CASES.forEach((c, i) =>
    it(`${c.name}: ${c.generatorIgnores ? `contradicted where ${c.generatorIgnores.reason}` : 'no verdict contradicted'}`, () => {
      const { result, changes, callable } = results[i]!;
      expect(result.disagreements.map((d) => `${d.rule} ${d.audience}`)).toEqual(
        c.generatorIgnores?.contradicted ?? [],
      );
      // Every change on an operation old clients can call was observed by both audiences.
      for (const checked of result.changes) {
        const change = changes.find((ch) => ch.rule === checked.rule && ch.path === checked.path)!;
        if (change.operations.some((op) => callable.includes(op)))
          expect(checked.verdict, `${checked.path} ${checked.audience}`).not.toBe('not observed');
      }
    }),
  );
});

describe('evgen diff --verify: new clients against old servers', () => {
  // What a new client knows and an old server never had is not lost: it was never sent (a new
  // operation is another matter: the old server refuses it).
  const NOTHING_LOST = ['optional field added', 'paging added'];
  for (const edit of NOTHING_LOST)
    it(`${edit}: every call of a new client to an old server passes`, () => {
      expect(results[DIFF_CASES.findIndex((c) => c.name === edit)]!.back).toEqual([]);
    });

  it('never reports a value "no longer sent" by a server older than the client', () => {
    const wrong = results.flatMap((r) => r.back.filter((l) => l.includes('no longer sent')));
    expect(wrong).toEqual([]);
  });
});

describe('evgen diff --verify holds wrong verdicts against behaviour', () => {
  CLAIMS.forEach(([edit, rule, audience, claim, want], i) =>
    it(`${edit}: ${rule} claimed ${claim} for ${audience} → ${want}`, () => {
      const { result } = results[DIFF_CASES.length + i]!;
      expect(
        result.changes.filter((c) => c.audience === audience).map((c) => [c.rule, c.verdict]),
      ).toEqual([[rule, want]]);
    }),
  );
});
