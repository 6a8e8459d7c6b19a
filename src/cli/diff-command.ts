// evgen diff: every change between two spec versions, classified per audience. Exit codes: 0
// nothing at or above --fail-on; 1 something is (or --verify found a verdict contradicted, or
// --check-version found the package version understating the change); 2 wrong usage, a spec
// that does not validate, or any other error: a job reading the code must never take a crash for
// a verdict.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { SpecError } from '../generator/spec/diagnostics.js';
import { diffSpecs } from '../diff/diff.js';
import { formatJson, formatMarkdown, formatText, summarize, type Format } from '../diff/format.js';
import { checkPackageVersion } from '../diff/gate.js';
import { checkoutSpec, headSource, loadVersion, UsageError } from '../diff/input.js';
import { atLeast, keptAudiences, worst, type Severity } from '../diff/model.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface DiffOptions {
  base?: string;
  head: string;
  format: Format;
  failOn: Severity | 'none';
  verify?: boolean;
  checkVersion?: boolean;
}

export function registerDiffCommand(program: Command): void {
  program
    .command('diff')
    .description(
      'classify every change between two spec versions for wire-lax, wire-strict and TypeScript clients; propose the next package version',
    )
    .option(
      '--base <git-ref|dir>',
      'the old spec: a folder holding a spec (or a folder with spec/ in it), or a git ref (<ref> or <ref>:<path>); default: the last release git history shows (else HEAD)',
    )
    .option(
      '--head <dir>',
      'the new spec: a folder holding a spec (or a folder with spec/ in it)',
      resolve(PROJECT_ROOT, 'spec'),
    )
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['text', 'json', 'markdown'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--fail-on <severity>',
        'exit 1 when a change is at least this severe for an audience kept (compatibility.audiences of either spec)',
      )
        .choices(['breaking', 'dangerous', 'none'])
        .default('breaking'),
    )
    .option(
      '--verify',
      "run each version's generated client against the other's server stub for every touched operation and binding; exit 1 where a verdict is contradicted",
    )
    .option(
      '--check-version',
      'exit 1 when the package version in spec/CHANGELOG.md does not satisfy the diff against the releases git history shows',
    )
    .addHelpText(
      'after',
      `
Exit codes:
  0  no change at or above --fail-on (and, with --verify / --check-version, nothing contradicted)
  1  a change at or above --fail-on, a verdict --verify contradicted, or a version that understates the diff
  2  wrong usage, a spec that does not validate (file:line:col errors on stderr), or any other error`,
    )
    .action(async (o: DiffOptions) => {
      try {
        process.exitCode = await runDiff(o);
      } catch (e) {
        console.error(describeFailure(e));
        process.exitCode = 2;
      }
    });
}

/** A usage or spec error as it is; anything else as an internal error (exit code 2 either way). */
function describeFailure(e: unknown): string {
  if (e instanceof SpecError || e instanceof UsageError) return e.message;
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return `internal error: ${what}${process.env.EVGEN_DEBUG && e instanceof Error ? `\n${e.stack}` : ' (EVGEN_DEBUG=1 shows where)'}`;
}

async function runDiff(o: DiffOptions): Promise<number> {
  const headFolder = await headSource(o.head);
  const head = await loadVersion(headFolder, o.head);
  // One notion of the last release: the gate's. Without --base, the diff is against the release
  // the proposed version comes from (the last, unless an older one of the same line needs more).
  const gate = await checkPackageVersion(head.specDir, head);
  const baseRef = o.base ?? gate.binding?.commit ?? 'HEAD';
  const checkout = await checkoutSpec(baseRef, head.specDir);
  try {
    const base = await loadVersion(checkout, baseRef).catch((e: unknown) => {
      if (e instanceof SpecError) e.message = `--base ${baseRef}: ${e.message}`;
      throw e;
    });
    const changes = await diffSpecs(base, head);
    const kept = keptAudiences(base, head);
    const summary = summarize(changes, gate, kept);
    let failed =
      o.failOn !== 'none' &&
      changes.some((c) => atLeast(worst(c.severities, kept), o.failOn as Severity));
    let verifyReport: object | undefined;
    if (o.verify) {
      const { verifyChanges, formatVerify } = await import('../diff/verify/index.js');
      const v = await verifyChanges(base, head, changes);
      verifyReport = { verify: v };
      if (o.format !== 'json') console.log(formatVerify(v));
      if (v.disagreements.length > 0) failed = true;
    }
    console.log(
      o.format === 'json'
        ? formatJson(changes, summary, verifyReport)
        : o.format === 'markdown'
          ? formatMarkdown(changes, summary)
          : formatText(changes, summary),
    );
    for (const w of gate.warnings) console.error(`warning: ${w}`);
    if (o.checkVersion) {
      (gate.ok ? console.log : console.error)(gate.message);
      if (!gate.ok) failed = true;
    }
    return failed ? 1 : 0;
  } finally {
    await checkout.dispose();
  }
}
