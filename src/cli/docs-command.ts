// evgen docs: the help pages as static files for publishing the interface's documentation.
// The generated package loads only when the command runs, so a broken generated/ never stops
// `evgen generate` from starting.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';

export function registerDocsCommand(program: Command): void {
  program
    .command('docs')
    .description(
      'write the help pages as static HTML (and the WSDL) with {base_url} placeholders, for publishing',
    )
    .requiredOption('--out <dir>', 'output directory (created when missing)')
    .action(async (o: { out: string }) => {
      const out = resolve(o.out);
      await mkdir(out, { recursive: true });
      const { staticHelpFiles } = await import('./static-docs.js');
      const files = await staticHelpFiles();
      for (const [name, text] of files) await writeFile(join(out, name), text);
      console.log(`wrote ${files.size} files to ${out} (open index.html)`);
    });
}
