// load → validate → IR → render → format (→ type-check): the whole generator, in memory.
import { artifacts } from './artifacts.js';
import { buildIr } from './ir/build.js';
import type { IrSpec } from './ir/model.js';
import { createEngine } from './render/engine.js';
import { formatOutput } from './render/format.js';
import { withManifest } from './output.js';
import { loadSpec } from './spec/load.js';
import { readRelease } from '../diff/release.js';

export interface GenerateOptions {
  readonly specDir: string;
  readonly templatesDir: string;
}

/** Generated files by path under the output directory, sorted by path, the manifest included. */
export type GeneratedFiles = ReadonlyMap<string, string>;

export async function loadIr(specDir: string): Promise<IrSpec> {
  return buildIr(await loadSpec(specDir));
}

export async function generateFiles(opts: GenerateOptions): Promise<GeneratedFiles> {
  const ir = await loadIr(opts.specDir);
  return renderIr(ir, opts.templatesDir, (await readRelease(opts.specDir)).version);
}

/** `packageVersion`: the generated package's own version (spec/CHANGELOG.md), not the interface's. */
export async function renderIr(
  ir: IrSpec,
  templatesDir: string,
  packageVersion: string,
): Promise<GeneratedFiles> {
  const engine = await createEngine(templatesDir);
  const rendered = await Promise.all(
    artifacts.map(
      async (a) =>
        [
          a.path,
          await formatOutput(a.kind, engine.render(a.template, a.view(ir, packageVersion)), a.path),
        ] as const,
    ),
  );
  return withManifest(new Map(rendered));
}
