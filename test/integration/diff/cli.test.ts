// evgen diff and the version gate from the command line, in a temporary git repository holding a
// copy of the project's spec: git refs as --base, the three formats, exit codes 0/1/2,
// --check-version and `evgen generate` refusing a version that understates a change.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_DIR } from '../../support/ir.js';
import { runEvgen } from '../../support/evgen.js';

const exec = promisify(execFile);
const run = (cwd: string, ...args: string[]) => runEvgen(args, cwd);

let repo: string;
let spec: string;
let released: string;
/** A commit without spec/: a base this evgen cannot read. */
let empty: string;
const git = (...args: string[]) => exec('git', args, { cwd: repo }).then((r) => r.stdout.trim());
const edit = async (file: string, from: string, to: string) => {
  const path = join(spec, file);
  const text = await readFile(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} not in ${file}`);
  await writeFile(path, text.replace(from, to));
};
const CREATED = '{ name: CreatedDate, type: dateTime }';
const generate = (out: string, ...args: string[]) =>
  run(repo, 'generate', '--spec', spec, '--out', out, '--no-typecheck', ...args);

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'evgen-diff-repo-'));
  spec = join(repo, 'spec');
  await cp(SPEC_DIR, spec, { recursive: true });
  // The copy's log holds only a 1.0.0, released by the commit adding its heading (the project's
  // own headings name commits this repository does not have).
  const log = join(spec, 'CHANGELOG.md');
  const text = await readFile(log, 'utf8');
  await writeFile(log, `${text.slice(0, text.indexOf('\n## ') + 1)}## 1.0.0\n\nFirst release.\n`);
  const commit = (message: string, ...args: string[]) =>
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', message, ...args);
  await git('init', '-q', '-b', 'main');
  await commit('empty', '--allow-empty');
  empty = await git('rev-parse', '--short', 'HEAD');
  await git('add', 'spec');
  await commit('spec 1.0.0');
  released = await git('rev-parse', '--short', 'HEAD');
});
afterAll(() => rm(repo, { recursive: true, force: true }));

describe('evgen diff (git base)', () => {
  it('finds nothing against HEAD when the working spec is unchanged, and exits 0', async () => {
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
      `BREAKING  HEAD:spec/types/booking.yaml:${line}  BookingResponse.CreatedDate removed (renamed?): clients reading it fail; strict clients reject the new element DateCreated  [FIELD_NO_REMOVE]`,
    );
    expect(r.stdout).toContain('next package version 2.0.0 (major, from 1.0.0)');
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
      audience: ['wire-lax', 'wire-strict', 'typescript'],
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
      '| severity | wire-lax | wire-strict | typescript | where | change | rule |',
    );
    expect(r.stdout).toContain(
      '| **breaking** | breaking | breaking | breaking | `HEAD:spec/types/booking.yaml:',
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
    await edit('types/booking.yaml', '{ name: DateCreated, type: dateTime }', CREATED);
    expect((await run(repo, ...args)).code).toBe(0);
    expect((await run(repo, ...args, '--fail-on', 'dangerous')).code).toBe(1);
    await edit('authentication.yaml', 'clockSkewSeconds: 60', 'clockSkewSeconds: 300');
  });
});

describe('the package version gate', () => {
  const release = (version: string) =>
    readFile(join(spec, 'CHANGELOG.md'), 'utf8').then((t) =>
      writeFile(
        join(spec, 'CHANGELOG.md'),
        t.replace(
          /\n## [^\n]*\n(\nBase: [^\n]*\n)?/,
          `\n## ${version}\n\nBase: 1.0.0 at ${released}\n`,
        ),
      ),
    );

  it('refuses a change after the first release when no new heading says so', async () => {
    await edit('types/booking.yaml', CREATED, '{ name: DateCreated, type: dateTime }');
    const g = await generate(join(repo, 'out0'));
    expect(g.code).toBe(1);
    expect(g.stderr).toContain(
      `package version 1.0.0 does not satisfy the diff against 1.0.0 (${released}): 2 change(s) need a major version, at least 2.0.0`,
    );
    expect(g.stderr).toContain(
      `add a heading "## 2.0.0" with the line "Base: 1.0.0 at ${released}" to spec/CHANGELOG.md`,
    );
  });

  it('refuses a minor version after a breaking change, in evgen diff --check-version and evgen generate', async () => {
    await release('1.1.0');
    const d = await run(repo, 'diff', '--head', spec, '--fail-on', 'none', '--check-version');
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(
      `package version 1.1.0 does not satisfy the diff against 1.0.0 (${released}): 2 change(s) need a major version, at least 2.0.0`,
    );
    const out = join(repo, 'out');
    const g = await generate(out);
    expect(g.code).toBe(1);
    expect(g.stderr).toContain('nothing written (or pass --allow-breaking)');
    const forced = await generate(out, '--allow-breaking');
    expect(forced.code).toBe(0);
    expect(JSON.parse(await readFile(join(out, 'package.json'), 'utf8'))).toMatchObject({
      version: '1.1.0',
    });
  });

  it('accepts the major version and writes it into the package', async () => {
    await release('2.0.0');
    expect(
      (await run(repo, 'diff', '--head', spec, '--fail-on', 'none', '--check-version')).code,
    ).toBe(0);
    const out = join(repo, 'out2');
    expect((await generate(out)).code).toBe(0);
    const pkg = JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as {
      version: string;
      description: string;
    };
    expect(pkg.version).toBe('2.0.0');
    expect(pkg.description).toContain('Interface 1.0');
  });

  it('warns and passes when the recorded base cannot be read (a commit without a loadable spec)', async () => {
    const log = join(spec, 'CHANGELOG.md');
    await writeFile(
      log,
      (await readFile(log, 'utf8')).replace(/Base: 1\.0\.0 at \w+/, `Base: 1.0.0 at ${empty}`),
    );
    const g = await generate(join(repo, 'out3'));
    expect(g.code).toBe(0);
    expect(g.stderr).toContain(
      `warning: the spec of 1.0.0 at ${empty} cannot be read, so the package version is not checked`,
    );
  });
});
