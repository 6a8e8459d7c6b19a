// generate, check and validate: the generator's commands.
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { compareOutput, writeOutput, type Difference } from '../generator/output.js';
import { generateFiles, loadIr } from '../generator/pipeline.js';
import { checkPackageVersion } from '../diff/gate.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const defaults = {
  spec: resolve(PROJECT_ROOT, 'spec'),
  templates: resolve(PROJECT_ROOT, 'templates'),
  out: resolve(PROJECT_ROOT, 'generated'),
};

interface PathOptions {
  spec: string;
  templates: string;
  out: string;
}

function withPaths(cmd: Command, out = true): Command {
  cmd
    .option('--spec <dir>', 'spec directory', defaults.spec)
    .option('--templates <dir>', 'templates directory', defaults.templates);
  return out ? cmd.option('--out <dir>', 'output directory', defaults.out) : cmd;
}

/** What to do next, naming the files `generate` would overwrite, delete or refuse to run beside. */
export function advice(diffs: readonly Difference[]): string {
  const paths = (kind: Difference['kind']) =>
    diffs.filter((d) => d.kind === kind).map((d) => d.path);
  const [edited, stale, foreign] = [paths('different'), paths('extra'), paths('foreign')];
  const lines = ['run: npx evgen generate'];
  if (edited.length)
    lines.push(
      `  it overwrites the hand edits in ${edited.join(', ')}: to keep an edit, make it in spec/ or templates/ instead`,
    );
  if (stale.length)
    lines.push(`  it deletes ${stale.join(', ')}, which the spec no longer produces`);
  if (foreign.length)
    lines.push(
      `  it refuses to run beside ${foreign.join(', ')}, which evgen did not write: move them away (or pass --force to keep them)`,
    );
  return lines.join('\n');
}

export function registerGeneratorCommands(program: Command): void {
  withPaths(
    program
      .command('generate')
      .description(
        'generate types, codecs, client, server stub, WSDL and conformance tests from the spec into the output directory',
      )
      .option('--no-typecheck', 'skip the in-memory type check of the generated TypeScript')
      .option(
        '--force',
        'write even though the output directory holds files evgen did not write (they are kept)',
      )
      .option(
        '--allow-breaking',
        'write even when the package version in spec/CHANGELOG.md does not satisfy the diff against its base release',
      ),
  ).action(
    async (o: PathOptions & { typecheck: boolean; force?: boolean; allowBreaking?: boolean }) => {
      // The package version must say what changed since the release it names (see `evgen diff`).
      const gate = await checkPackageVersion(resolve(o.spec));
      if (!gate.ok && !o.allowBreaking)
        throw new Error(`${gate.message}; nothing written (or pass --allow-breaking)`);
      if (!gate.ok) console.warn(`warning: ${gate.message} (--allow-breaking)`);
      if (gate.warning) console.warn(gate.message);
      const files = await generateFiles({
        specDir: resolve(o.spec),
        templatesDir: resolve(o.templates),
      });
      if (o.typecheck) {
        // ts-morph is loaded only here: check and validate start faster without it.
        const { typecheckGenerated } = await import('../generator/typecheck.js');
        const errors = typecheckGenerated(files, resolve(o.out), PROJECT_ROOT);
        if (errors.length > 0)
          throw new Error(
            `generated code does not type-check; nothing written:\n${errors.join('\n')}`,
          );
      }
      const changes = await writeOutput(resolve(o.out), files, { force: o.force ?? false });
      for (const c of changes)
        console.log(
          `${c.kind === 'extra' ? 'deleted' : c.kind === 'missing' ? 'created' : 'updated'} ${c.path}`,
        );
      console.log(`${files.size} files, ${changes.length} changed`);
    },
  );

  withPaths(
    program
      .command('check')
      .description(
        'exit 1 when any file in the output directory is missing, extra or different from what the spec produces now',
      ),
  ).action(async (o: PathOptions) => {
    const files = await generateFiles({
      specDir: resolve(o.spec),
      templatesDir: resolve(o.templates),
    });
    const diffs = await compareOutput(resolve(o.out), files);
    const where = `${relative(process.cwd(), resolve(o.out)) || '.'}/`;
    if (diffs.length === 0) {
      console.log(`${where} is current (${files.size} files)`);
      return;
    }
    console.error(`${where} is not what the spec produces (${diffs.length} file(s)):`);
    for (const d of diffs) {
      console.error(`  ${d.kind.padEnd(9)} ${d.path}`);
      if (d.diff) console.error(d.diff.replace(/^/gm, '      '));
    }
    console.error(advice(diffs));
    process.exitCode = 1;
  });

  withPaths(
    program
      .command('validate')
      .description('load and validate the spec only; report every error with file:line:col'),
    false,
  ).action(async (o: PathOptions) => {
    const ir = await loadIr(resolve(o.spec));
    console.log(
      `spec is valid: ${ir.operations.length} operations, ${ir.types.length} types, ${ir.gaps.length} gaps`,
    );
  });

  program
    .command('bench')
    .description(
      'measure the generator, codecs, server, client and memory, each against a baseline in the same run',
    )
    .option('--quick', 'shorter runs (for a smoke test)')
    .option(
      '--out <file>',
      'where to write the JSON results',
      resolve(PROJECT_ROOT, '.bench/results.json'),
    )
    .action(async (o: { quick?: boolean; out: string }) => {
      const { runBench } = await import('../bench/index.js');
      await runBench({ quick: o.quick ?? false, out: resolve(o.out) });
    });
}
