// evgen diff from the command line, in a temporary git repository holding a copy of the project's
// spec whose history released 1.0.0 and started 1.1.0: the last release as the default base, git
// refs as --base, the three formats, --verify, --fail-on. The version gate has its own file
// (release-gate.test.ts), as have --base folders and the exit codes (base-and-exit.test.ts).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvgen } from '../../support/evgen.js';
import { specRepo, type SpecRepo } from '../../support/spec-repo.js';

const run = (cwd: string, ...args: string[]) => runEvgen(args, cwd);

let history: SpecRepo;
let repo: string;
let spec: string;
let released: string;
const edit = (file: string, from: string, to: string) => history.edit({ file, from, to });
const CREATED = '{ name: CreatedDate, type: dateTime }';

beforeAll(async () => {
  // The copy's log holds a 1.0.0, released by the commit starting 1.1.0.
  history = await specRepo('diff-repo');
  ({ dir: repo, spec } = history);
  released = await history.commit('spec 1.0.0');
  await edit('CHANGELOG.md', '## 1.0.0', '## 1.1.0\n\n## 1.0.0');
  await history.commit('start 1.1.0');
});
afterAll(() => history.remove());

describe('evgen diff (git base)', () => {
  it('finds nothing against the last release when the spec is unchanged, and exits 0', async () => {
    const r = await run(repo, 'diff', '--head', spec);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toContain('no changes');
  });

  it('reports a renamed required field at its line with the rename hint, and exits 1', async () => {
    const line =
      (await readFile(join(spec, 'types/booking.yaml'), 'utf8'))
        .split('\n')
        .findIndex((l) => l.includes(CREATED)) + 1;
    await edit('types/booking.yaml', CREATED, '{ name: DateCreated, type: dateTime }');
    const r = await run(repo, 'diff', '--head', spec);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toContain(
      `BREAKING  ${released}:spec/types/booking.yaml:${line}  BookingResponse.CreatedDate removed (renamed?): clients reading it fail; strict clients reject the new element DateCreated  [FIELD_NO_REMOVE]`,
    );
    expect(r.stdout).toContain(
      `next package version 2.0.0 (major, from the last release 1.0.0 at ${released}); spec/CHANGELOG.md says 1.1.0: too low`,
    );
  });

  it('exits 0 with --fail-on none', async () => {
    expect((await run(repo, 'diff', '--head', spec, '--fail-on', 'none')).code).toBe(0);
  });

  it('writes JSON with rule, severity, audience, path, file, line, message and a summary', async () => {
    const r = await run(
      repo,
      'diff',
      '--head',
      spec,
      '--base',
      released,
      '--format',
      'json',
      '--fail-on',
      'none',
    );
    const report = JSON.parse(r.stdout) as {
      changes: Record<string, unknown>[];
      summary: Record<string, unknown>;
    };
    expect(report.changes.find((c) => c.rule === 'FIELD_NO_REMOVE')).toMatchObject({
      severity: 'breaking',
      // The audiences the spec keeps at that severity (wire-strict is not kept).
      audience: ['wire-lax', 'typescript'],
      path: 'BookingResponse.CreatedDate',
      // Read from the base commit, and named so.
      file: `${released}:spec/types/booking.yaml`,
    });
    expect(report.summary).toMatchObject({
      breaking: 2,
      level: 'major',
      baseVersion: '1.0.0',
      proposedVersion: '2.0.0',
    });
  });

  it('writes a Markdown table', async () => {
    const r = await run(repo, 'diff', '--head', spec, '--format', 'markdown', '--fail-on', 'none');
    expect(r.stdout).toContain(
      '| severity | wire-lax | wire-strict (not kept) | typescript | where | change | rule |',
    );
    expect(r.stdout).toContain(
      '| **breaking** | breaking | breaking | breaking | `' +
        released +
        ':spec/types/booking.yaml:',
    );
  });

  it(
    'confirms the verdicts with --verify (the old client fails on the renamed element)',
    { timeout: 120_000 },
    async () => {
      const r = await run(repo, 'diff', '--head', spec, '--verify');
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /verify wire-lax +confirmed +breaking +BookingResponse\.CreatedDate +\[FIELD_NO_REMOVE\] +GetBooking \w+ full: failed XmlDecodeError: GetBookingResult\/CreatedDate/,
      );
      expect(r.stdout).toMatch(
        /verify typescript +confirmed +breaking +BookingResponse\.CreatedDate +\[FIELD_NO_REMOVE\] +call GetBooking: Property 'CreatedDate' is missing in type 'head\.BookingResponseReceived'/,
      );
      expect(r.stdout).toMatch(
        /verify: \d+ calls; 3 confirmed, 0 consistent, 0 contradicted, 1 masked, 0 not observed/,
      );
    },
  );

  it('exits 2 on a base that is neither a folder nor a commit', async () => {
    const r = await run(repo, 'diff', '--head', spec, '--base', 'no-such-ref');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--base no-such-ref: neither a folder nor a commit');
  });

  it('exits 2 with file:line:col on a head spec that does not validate', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'evgen-diff-broken-'));
    await cp(spec, join(broken, 'spec'), { recursive: true });
    await writeFile(
      join(broken, 'spec/types/extra.yaml'),
      'types:\n  - name: X\n    doc: x\n    section: x\n    fields:\n      - { name: A, type: Nope }\n',
    );
    const r = await run(repo, 'diff', '--head', join(broken, 'spec'), '--base', spec);
    await rm(broken, { recursive: true, force: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/spec\/types\/extra\.yaml:6:\d+: /);
  });

  it('fails on a dangerous change only with --fail-on dangerous', async () => {
    await edit('authentication.yaml', 'clockSkewSeconds: 300', 'clockSkewSeconds: 60');
    const args = ['diff', '--head', spec, '--base', released];
    // BookingResponse's (AttendeeResponse has a DateCreated of its own).
    const grossCost = '\n      - { name: GrossCost';
    await edit(
      'types/booking.yaml',
      `{ name: DateCreated, type: dateTime }${grossCost}`,
      `${CREATED}${grossCost}`,
    );
    expect((await run(repo, ...args)).code).toBe(0);
    expect((await run(repo, ...args, '--fail-on', 'dangerous')).code).toBe(1);
    await edit('authentication.yaml', 'clockSkewSeconds: 60', 'clockSkewSeconds: 300');
  });
});
