// load → validate → IR → render → format (→ type-check): the whole generator, in memory.
import { DEFAULT_PACKAGE, artifacts, type Artifact, type PackageInfo } from './artifacts.js';
import { buildIr } from './ir/build.js';
import type { IrSpec } from './ir/model.js';
import { createEngine } from './render/engine.js';
import { formatOutput } from './render/format.js';
import { withManifest } from './output.js';
import { loadSpec } from './spec/load.js';
import { readPackageVersion } from '../diff/release.js';

export interface GenerateOptions {
  readonly specDir: string;
  readonly templatesDir: string;
  /** The generated package's name and repository; default: this project's. */
  readonly package?: PackageInfo;
}

/** Generated files by path under the output directory, sorted by path, the manifest included. */
export type GeneratedFiles = ReadonlyMap<string, string>;

export async function loadIr(specDir: string): Promise<IrSpec> {
  return buildIr(await loadSpec(specDir));
}

export async function generateFiles(opts: GenerateOptions): Promise<GeneratedFiles> {
  const ir = await loadIr(opts.specDir);
  return renderIr(
    ir,
    opts.templatesDir,
    (await readPackageVersion(opts.specDir)).version,
    opts.package,
  );
}

/**
 * `packageVersion`: the generated package's own version (spec/CHANGELOG.md), not the interface's;
 * `pkg`: its name and repository (default: this project's).
 */
export async function renderIr(
  ir: IrSpec,
  templatesDir: string,
  packageVersion: string,
  pkg: PackageInfo = DEFAULT_PACKAGE,
): Promise<GeneratedFiles> {
  const engine = await createEngine(templatesDir);
  const rendered = new Map<string, string>();
  const render = async (phase: readonly Artifact[]) => {
    const done = await Promise.all(
      phase.map(async (a) => {
        const text = engine.render(a.template, a.view(ir, packageVersion, pkg, rendered));
        return [a.path, await formatOutput(a.kind, text, a.path)] as const;
      }),
    );
    for (const [path, text] of done) rendered.set(path, text);
  };
  await render(artifacts.filter((a) => !a.last));
  await render(artifacts.filter((a) => a.last));
  return withManifest(rendered); // sorted there
}
