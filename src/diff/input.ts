// The two versions a diff compares: a spec folder, or the spec folder as a git commit has it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildIr } from '../generator/ir/build.js';
import type { IrSpec } from '../generator/ir/model.js';
import { loadSpec, type RawSpec } from '../generator/spec/load.js';
import { SpecLocator } from './locate.js';

const run = promisify(execFile);

export interface SpecVersion {
  /** What the user named: a folder or a git ref. */
  readonly label: string;
  readonly specDir: string;
  readonly ir: IrSpec;
  /** Spec facts the IR does not carry yet (binding paths, the SOAPAction rule). */
  readonly raw: RawSpec;
  readonly locator: SpecLocator;
}

export async function loadVersion(specDir: string, label = specDir): Promise<SpecVersion> {
  const raw = await loadSpec(specDir);
  return { label, specDir, ir: buildIr(raw), raw, locator: new SpecLocator(specDir) };
}

/** Thrown for a --base that is neither a folder nor a commit of the repository. */
export class UsageError extends Error {}

export interface Checkout {
  readonly specDir: string;
  dispose(): Promise<void>;
}

/**
 * `ref` as a spec folder: a directory is used as it is; otherwise the repository's spec folder
 * (the path of `workingSpecDir` inside it) is extracted at commit `ref` into a temporary folder.
 */
export async function checkoutSpec(ref: string, workingSpecDir: string): Promise<Checkout> {
  const asDir = await stat(resolve(ref)).catch(() => undefined);
  if (asDir?.isDirectory()) return { specDir: resolve(ref), dispose: async () => {} };
  const git = (args: string[], cwd: string) =>
    run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' });
  let top: string;
  try {
    top = (await git(['rev-parse', '--show-toplevel'], workingSpecDir)).stdout.toString().trim();
  } catch {
    throw new UsageError(
      `--base ${ref}: not a folder, and ${workingSpecDir} is not in a git repository`,
    );
  }
  const inRepo = relative(top, resolve(workingSpecDir)).split('\\').join('/');
  try {
    await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], top);
  } catch {
    throw new UsageError(`--base ${ref}: neither a folder nor a commit of ${top}`);
  }
  const tmp = await mkdtemp(join(tmpdir(), 'evgen-diff-'));
  const tar = await git(['archive', '--format=tar', ref, '--', inRepo], top).catch(() => {
    throw new UsageError(`--base ${ref}: the commit has no ${inRepo}/`);
  });
  await new Promise<void>((done, fail) => {
    const child = execFile('tar', ['-x', '-C', tmp], (e) =>
      e ? fail(new Error(`tar: ${e.message}`)) : done(),
    );
    child.stdin!.end(tar.stdout);
  });
  return {
    specDir: join(tmp, inRepo),
    dispose: () => rm(tmp, { recursive: true, force: true }),
  };
}
