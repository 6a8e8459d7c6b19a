// The two versions a diff compares: a folder holding a spec, or the spec folder as a git commit
// has it. Each version names its files as they were read (a folder relative to the current one,
// a commit as `<ref>:<path>`), so every reported line points into the file it came from.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildIr } from '../generator/ir/build.js';
import type { IrSpec } from '../generator/ir/model.js';
import { loadSpec, type RawSpec } from '../generator/spec/load.js';
import { inSpec, SpecLocator } from './locate.js';
import { UsageError } from '../cli/usage.js';

const run = promisify(execFile);

/** Where a version's files were read: the spec folder, and how its files are named in reports. */
export interface SpecSource {
  readonly specDir: string;
  /** `spec/types/booking.yaml` (as provenance names it) → the path the user can open. */
  readonly display: (specFile: string) => string;
}

export interface SpecVersion extends SpecSource {
  /** What the user named: a folder or a git ref. */
  readonly label: string;
  readonly ir: IrSpec;
  /** Spec facts the IR does not carry yet (binding paths, the SOAPAction rule). */
  readonly raw: RawSpec;
  readonly locator: SpecLocator;
}

/** The source of a spec folder on disk, named relative to the current folder. */
export function folderSource(specDir: string): SpecSource {
  const dir = resolve(specDir);
  return {
    specDir: dir,
    display: (f) =>
      relative(process.cwd(), join(dir, inSpec(f)))
        .split('\\')
        .join('/'),
  };
}

export async function loadVersion(
  source: SpecSource | string,
  label = typeof source === 'string' ? source : source.specDir,
): Promise<SpecVersion> {
  const s = typeof source === 'string' ? folderSource(source) : source;
  const raw = await loadSpec(s.specDir);
  return { ...s, label, ir: buildIr(raw), raw, locator: new SpecLocator(s.specDir) };
}

/** Thrown for a --base or --head that names no spec: the CLI's one UsageError, exit code 2. */
export { UsageError };

export interface Checkout extends SpecSource {
  dispose(): Promise<void>;
}

const isDir = async (p: string) => (await stat(p).catch(() => undefined))?.isDirectory() === true;
const isFile = async (p: string) => (await stat(p).catch(() => undefined))?.isFile() === true;

/** The spec folder `dir` names: itself when it holds service.yaml, else its spec/ when that does. */
export async function specFolderIn(dir: string): Promise<string | undefined> {
  for (const candidate of [dir, join(dir, 'spec')])
    if (await isFile(join(candidate, 'service.yaml'))) return candidate;
  return undefined;
}

/** `--head`: a folder holding a spec (the spec folder, or a folder with spec/ in it). */
export async function headSource(dir: string, option = '--head'): Promise<SpecSource> {
  const found = await specFolderIn(resolve(dir));
  if (!found)
    throw new UsageError(
      `${option} ${dir}: ${(await isDir(resolve(dir))) ? 'a folder holding no spec (no service.yaml in it or in its spec/)' : 'no such folder'}`,
    );
  return folderSource(found);
}

const git = (args: string[], cwd: string) =>
  run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' });

/** The top of the git repository holding `dir`, or undefined. */
export async function repositoryOf(dir: string): Promise<string | undefined> {
  try {
    return (await git(['rev-parse', '--show-toplevel'], dir)).stdout.toString().trim();
  } catch {
    return undefined;
  }
}

/**
 * `ref` as a spec: a folder holding a spec is used as it is; otherwise `ref` is a git commit
 * (`<ref>` or `<ref>:<path>`) of the repository holding `workingSpecDir` (or else of the current
 * folder), whose spec folder (`<path>`, or the path of `workingSpecDir` in the repository, or
 * spec/) is extracted into a temporary folder.
 */
export async function checkoutSpec(
  ref: string,
  workingSpecDir: string,
  option = '--base',
): Promise<Checkout> {
  if (await isDir(resolve(ref))) {
    const source = await headSource(ref, option);
    return { ...source, dispose: async () => {} };
  }
  const [rev, path] = ref.includes(':')
    ? [ref.slice(0, ref.indexOf(':')), ref.slice(ref.indexOf(':') + 1)]
    : [ref, undefined];
  const top = (await repositoryOf(resolve(workingSpecDir))) ?? (await repositoryOf(process.cwd()));
  if (!top)
    throw new UsageError(
      `${option} ${ref}: neither a folder nor a commit (no git repository holds ${workingSpecDir} or the current folder)`,
    );
  const own = relative(top, resolve(workingSpecDir)).split('\\').join('/');
  const inRepo = (path ?? (own.startsWith('..') ? 'spec' : own)).replace(/\/+$/, '') || '.';
  try {
    await git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], top);
  } catch {
    throw new UsageError(`${option} ${ref}: neither a folder nor a commit of ${top}`);
  }
  const tmp = await mkdtemp(join(tmpdir(), 'evgen-diff-'));
  const dispose = () => rm(tmp, { recursive: true, force: true });
  try {
    const tar = await git(['archive', '--format=tar', rev, '--', inRepo], top).catch(() => {
      throw new UsageError(`${option} ${ref}: the commit has no ${inRepo}/`);
    });
    await new Promise<void>((done, fail) => {
      const child = execFile('tar', ['-x', '-C', tmp], (e) =>
        e ? fail(new Error(`tar: ${e.message}`)) : done(),
      );
      child.stdin!.end(tar.stdout);
    });
  } catch (e) {
    await dispose();
    throw e;
  }
  return {
    specDir: join(tmp, inRepo),
    display: (f) => `${rev}:${inRepo === '.' ? '' : `${inRepo}/`}${inSpec(f)}`,
    dispose,
  };
}
