// generate, check and validate: the generator's commands.
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { DEFAULT_PACKAGE, type PackageInfo } from '../generator/artifacts.js';
import { MANIFEST, type Difference } from '../generator/output.js';
import { UsageError } from './usage.js';

// The generator (prettier, handlebars, yaml) and the version gate load only when a command needs
// them: --help and the other commands start without them.
const generator = async () => ({
  ...(await import('../generator/output.js')),
  ...(await import('../generator/pipeline.js')),
  ...(await import('../diff/gate.js')),
});

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
  packageName?: string;
  repository?: string;
}

function withPaths(cmd: Command, out = true): Command {
  cmd
    .option('--spec <dir>', 'spec directory', defaults.spec)
    .option('--templates <dir>', 'templates directory', defaults.templates);
  if (!out) return cmd;
  return cmd
    .option('--out <dir>', 'output directory', defaults.out)
    .option(
      '--package-name <name>',
      `the generated package's name (default ${DEFAULT_PACKAGE.name})`,
    )
    .option('--repository <url>', 'its git repository (needed with --package-name)');
}

// npm's rules for a package name: lower case, URL-safe, at most 214 characters, scope optional.
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** The package to generate: ours by default, or another team's copy under its own name. */
function packageOf(o: PathOptions): PackageInfo {
  if (o.packageName === undefined && o.repository === undefined) return DEFAULT_PACKAGE;
  const name = o.packageName ?? DEFAULT_PACKAGE.name;
  if (!PACKAGE_NAME.test(name) || name.length > 214)
    throw new UsageError(
      `--package-name "${name}" is not an npm package name (such as @acme/events)`,
    );
  if (o.repository === undefined)
    throw new UsageError(
      `--package-name ${name} needs --repository <url>: the repository it is published from`,
    );
  return { name, repository: { type: 'git', url: o.repository } };
}

/** What to do next, naming the files `generate` would overwrite, delete or refuse to run beside. */
export function advice(diffs: readonly Difference[]): string {
  const paths = (kind: Difference['kind']) =>
    diffs.filter((d) => d.kind === kind).map((d) => d.path);
  const different = diffs.filter((d) => d.kind === 'different');
  const regenerated = different.filter((d) => d.cause === 'spec' && d.path !== MANIFEST);
  const edited = different.filter((d) => d.cause !== 'spec').map((d) => d.path);
  const [stale, foreign] = [paths('extra'), paths('foreign')];
  const lines = ['run: npx evgen generate'];
  if (regenerated.length)
    lines.push(
      `  spec/ or templates/ changed since generated/ was written: it updates ${regenerated.map((d) => d.path).join(', ')}`,
    );
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
        'write even when the package version in spec/CHANGELOG.md does not satisfy the diff against the releases git history shows',
      ),
  ).action(
    async (o: PathOptions & { typecheck: boolean; force?: boolean; allowBreaking?: boolean }) => {
      const pkg = packageOf(o); // usage errors before any work
      const { checkPackageVersion, generateFiles, writeOutput } = await generator();
      // The package version must say what changed since the releases git history shows (see
      // `evgen diff`).
      const gate = await checkPackageVersion(resolve(o.spec));
      for (const w of gate.warnings) console.warn(`warning: ${w}`);
      if (!gate.ok && !o.allowBreaking)
        throw new Error(`${gate.message}\nnothing written (or pass --allow-breaking)`);
      if (!gate.ok) console.warn(`warning: ${gate.message}\n(written anyway: --allow-breaking)`);
      const files = await generateFiles({
        specDir: resolve(o.spec),
        templatesDir: resolve(o.templates),
        package: pkg,
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
    const { compareOutput, generateFiles } = await generator();
    const files = await generateFiles({
      specDir: resolve(o.spec),
      templatesDir: resolve(o.templates),
      package: packageOf(o),
    });
    const diffs = await compareOutput(resolve(o.out), files);
    const where = `${relative(process.cwd(), resolve(o.out)) || '.'}/`;
    if (diffs.length === 0) {
      console.log(`${where} is current (${files.size} files)`);
      return;
    }
    console.error(`${where} is not what the spec produces (${diffs.length} file(s)):`);
    const why = {
      spec: ' (spec/ or templates/ changed: run generate)',
      edited: ' (edited by hand)',
    };
    for (const d of diffs) {
      console.error(`  ${d.kind.padEnd(9)} ${d.path}${d.cause ? why[d.cause] : ''}`);
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
    const { loadIr } = await generator();
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
      '--only <parts>',
      'run only these parts, comma-separated: generator, codecs, signature, memory, size, servers, per-core, scale',
    )
    .option(
      '--out <file>',
      'where to write the JSON results',
      resolve(PROJECT_ROOT, '.bench/results.json'),
    )
    .option(
      '--page <file>',
      'the page whose results table the run replaces (default: docs/performance.md, none with --quick)',
    )
    .action(async (o: { quick?: boolean; only?: string; out: string; page?: string }) => {
      const { runBench, benchParts } = await import('../bench/index.js');
      // A partial run replaces the page's table only when asked to (--page).
      const partial = o.quick === true || o.only !== undefined;
      const page = o.page ?? (partial ? undefined : resolve(PROJECT_ROOT, 'docs/performance.md'));
      await runBench({
        quick: o.quick ?? false,
        out: resolve(o.out),
        page: page && resolve(page),
        parts: benchParts(o.only),
      });
    });
}
