// The version gate reads a release whose spec predates a fault role the spec has now: a temporary
// git repository whose 1.0.0 commit holds the project's spec without its notImplemented code (as
// 1.0.0 was released), released by the next commit starting 1.1.0, and whose working spec is the
// project's.
// Before the role became optional the gate warned that the base "cannot be read" and checked
// nothing.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEdit } from '../../support/spec-copy.js';
import { SPEC_DIR } from '../../support/ir.js';
import { runEvgen } from '../../support/evgen.js';
import { withoutNotImplemented } from '../../support/without-not-implemented.js';

const exec = promisify(execFile);
const run = (cwd: string, ...args: string[]) => runEvgen(args, cwd);

const removed = withoutNotImplemented();
let repo: string;
let spec: string;
let released: string;
const log = () => join(spec, 'CHANGELOG.md');
/** The changelog's preamble followed by one section. */
const changelog = async (section: string) => {
  const text = await readFile(join(SPEC_DIR, 'CHANGELOG.md'), 'utf8');
  await writeFile(log(), `${text.slice(0, text.indexOf('\n## ') + 1)}${section}`);
};
const record = (version: string) =>
  changelog(`## ${version}\n\n- The ${removed.code} fault.\n\n## 1.0.0\n\nFirst release.\n`);

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'evgen-older-base-'));
  spec = join(repo, 'spec');
  const git = (...args: string[]) => exec('git', args, { cwd: repo }).then((r) => r.stdout.trim());
  await cp(SPEC_DIR, spec, { recursive: true });
  const errors = join(spec, removed.file);
  const current = await readFile(errors, 'utf8');
  await writeFile(errors, applyEdit(current, removed));
  await changelog('## 1.0.0\n\nFirst release.\n');
  await git('init', '-q', '-b', 'main');
  await git('add', 'spec');
  await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'spec 1.0.0');
  released = await git('rev-parse', '--short', 'HEAD');
  await record('1.1.0');
  await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'start 1.1.0');
  // The working spec: the project's, with the code.
  await writeFile(errors, current);
}, 60_000);
afterAll(() => rm(repo, { recursive: true, force: true }));

describe('a base without the notImplemented role', () => {
  it('is read: evgen diff lists the code as added', async () => {
    await record('1.1.0');
    const r = await run(repo, 'diff', '--base', released, '--head', spec, '--fail-on', 'none');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^DANGEROUS spec/errors\\.yaml:\\d+ +faults\\.${removed.code} added: old clients meet a code they do not know +\\[FAULT_CODE_ADDED\\]$`,
        'm',
      ),
    );
    expect(r.stdout).toContain('1 change: 0 breaking, 1 dangerous, 0 safe');
    expect(r.stdout).toContain(
      `next package version 1.1.0 (minor, from the last release 1.0.0 at ${released})`,
    );
  });

  it('gives the gate a verdict: a minor version passes, without a warning', async () => {
    await record('1.1.0');
    const d = await run(repo, 'diff', '--head', spec, '--fail-on', 'none', '--check-version');
    expect(d.stderr).not.toContain('warning');
    expect(d.code).toBe(0);
    expect(d.stdout).toContain(
      `package version 1.1.0 satisfies the diff against the last release, 1.0.0 (${released}): 1 change(s) needing a minor version`,
    );
  });

  it('refuses a patch version, in evgen diff --check-version and evgen generate', async () => {
    await record('1.0.1');
    const d = await run(repo, 'diff', '--head', spec, '--fail-on', 'none', '--check-version');
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(
      `package version 1.0.1 understates the diff against the last release, 1.0.0 (${released}): 1 change(s) need a minor version, at least 1.1.0`,
    );
    const out = join(repo, 'out');
    const g = await run(repo, 'generate', '--spec', spec, '--out', out, '--no-typecheck');
    expect(g.code).toBe(1);
    expect(g.stderr).not.toContain('warning');
    expect(g.stderr).toContain('nothing written (or pass --allow-breaking)');
  });
});
