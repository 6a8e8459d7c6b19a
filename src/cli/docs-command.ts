// evgen docs: the help pages as static files for publishing the interface's documentation
// (--out), and the project's reference pages written from their sources of truth (--reference;
// with --check, exit 1 when any is not current, as `evgen check` does for generated/).
// The generated package and the generator load only when the command runs, so a broken
// generated/ never stops `evgen generate` from starting.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from './usage.js';

interface DocsOptions {
  out?: string;
  reference?: boolean;
  check?: boolean;
}

async function staticPages(dir: string): Promise<void> {
  const out = resolve(dir);
  await mkdir(out, { recursive: true });
  const { staticHelpFiles } = await import('./static-docs.js');
  const files = await staticHelpFiles();
  for (const [name, text] of files) await writeFile(join(out, name), text);
  console.log(`wrote ${files.size} files to ${out} (open index.html)`);
}

async function referencePages(check: boolean): Promise<void> {
  const { checkReference, writeReference } = await import('../docs/reference.js');
  if (!check) {
    const changed = await writeReference();
    for (const path of changed) console.log(`updated ${path}`);
    console.log(`reference pages: ${changed.length} changed`);
    return;
  }
  const problems = await checkReference();
  if (problems.length === 0) {
    console.log('docs/reference/ is current');
    return;
  }
  console.error(`docs/reference/ is not what its sources give (${problems.length} file(s)):`);
  for (const p of problems) console.error(`  ${p.path}: ${p.problem.replace(/\n/g, '\n      ')}`);
  console.error('run: npx evgen docs --reference');
  process.exitCode = 1;
}

export function registerDocsCommand(program: Command): void {
  program
    .command('docs')
    .description(
      'write the help pages as static HTML (and the WSDL) with {base_url} placeholders (--out), or the reference pages of docs/reference/ from their sources (--reference)',
    )
    .option('--out <dir>', 'output directory of the static help pages (created when missing)')
    .option(
      '--reference',
      'write docs/reference/ (CLI, spec format and its JSON Schemas, diff rules, fault codes)',
    )
    .option('--check', 'with --reference: write nothing; exit 1 when a page is not current')
    .action(async (o: DocsOptions) => {
      if ((o.out === undefined) === (o.reference === undefined))
        throw new UsageError('evgen docs needs either --out <dir> or --reference');
      if (o.check && !o.reference) throw new UsageError('--check goes with --reference');
      if (o.out !== undefined) await staticPages(o.out);
      else await referencePages(o.check ?? false);
    });
}
