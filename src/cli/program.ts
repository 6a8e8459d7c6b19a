// The evgen command tree, built without running it: main.ts parses the command line with it, and
// the CLI reference (docs/reference/cli.md) is written from it, so the page names what --help says.
import { Command } from 'commander';
import { registerGeneratorCommands } from './generator-commands.js';
import { registerServiceCommands } from './service-commands.js';
import { registerConformanceCommand } from './conformance-command.js';
import { registerDiffCommand } from './diff-command.js';
import { registerDocsCommand } from './docs-command.js';
import { registerProxyCommands } from './proxy-command.js';

export const EXIT_CODES: readonly (readonly [number, string])[] = [
  [0, 'success'],
  [1, 'the spec is invalid, generated/ is not what the spec produces, or the command failed'],
  [2, 'wrong usage (unknown command or option, missing argument)'],
];

export function createProgram(): Command {
  const program = new Command('evgen')
    .description(
      'Spec-driven generator and reference service for the Event Management Web Service Interface 1.0',
    )
    .version('0.1.0')
    .exitOverride()
    .addHelpText(
      'after',
      `\nExit codes:\n${EXIT_CODES.map(([code, what]) => `  ${code}  ${what}`).join('\n')}`,
    );
  registerGeneratorCommands(program);
  registerServiceCommands(program);
  registerConformanceCommand(program);
  registerDiffCommand(program);
  registerDocsCommand(program);
  registerProxyCommands(program);
  return program;
}
