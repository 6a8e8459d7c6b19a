// A git repository of its own in a temporary folder, holding a copy of the project's spec whose
// CHANGELOG.md has one section, 1.0.0: for tests of evgen diff and the version gate, which read the
// releases from git history.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SPEC_DIR } from './ir.js';
import { applyEdit, type SpecEdit } from './spec-copy.js';

export interface SpecRepo {
  /** The repository, and its spec/ folder. */
  readonly dir: string;
  readonly spec: string;
  /** `git ...args` in the repository: its output, trimmed. */
  git(...args: string[]): Promise<string>;
  /** Commits every change; the abbreviated hash. */
  commit(message: string): Promise<string>;
  /** Applies the edits to spec/ (an empty `from` creates the file). */
  edit(...edits: readonly SpecEdit[]): Promise<void>;
  remove(): Promise<void>;
}

/** The changelog's preamble (of the project's CHANGELOG.md) followed by `sections`. */
export async function changelog(sections: string): Promise<string> {
  const text = await readFile(join(SPEC_DIR, 'CHANGELOG.md'), 'utf8');
  return `${text.slice(0, text.indexOf('\n## ') + 1)}${sections}`;
}

/** A new repository (`evgen-<name>-…`), nothing committed yet. */
export async function specRepo(name: string): Promise<SpecRepo> {
  const dir = await mkdtemp(join(tmpdir(), `evgen-${name}-`));
  const spec = join(dir, 'spec');
  await cp(SPEC_DIR, spec, { recursive: true });
  await writeFile(join(spec, 'CHANGELOG.md'), await changelog('## 1.0.0\n\nFirst release.\n'));
  const git = (...args: string[]) =>
    promisify(execFile)('git', args, { cwd: dir }).then((r) => r.stdout.trim());
  await git('init', '-q', '-b', 'main');
  return {
    dir,
    spec,
    git,
    async commit(message) {
      await git('add', '-A');
      await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', message);
      return git('rev-parse', '--short', 'HEAD');
    },
    async edit(...edits) {
      for (const e of edits) {
        const file = join(spec, e.file);
        await writeFile(file, applyEdit(await readFile(file, 'utf8').catch(() => ''), e));
      }
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
