// evgen: the command line. Exit codes: 0 success; 1 the spec is invalid, generated/ is stale, or
// a command failed; 2 wrong usage.
import { Command, CommanderError } from 'commander';
import { registerGeneratorCommands } from './generator-commands.js';
import { registerServiceCommands } from './service-commands.js';
import { registerConformanceCommand } from './conformance-command.js';
import { UsageError } from './usage.js';
import { registerDiffCommand } from './diff-command.js';
import { registerDocsCommand } from './docs-command.js';

const program = new Command('evgen')
  .description(
    'Spec-driven generator and reference service for the Event Management Web Service Interface 1.0',
  )
  .version('0.1.0')
  .exitOverride()
  .addHelpText(
    'after',
    `
Exit codes:
  0  success
  1  the spec is invalid, generated/ is not what the spec produces, or the command failed
  2  wrong usage (unknown command or option, missing argument)`,
  );

registerGeneratorCommands(program);
registerServiceCommands(program);
registerConformanceCommand(program);
registerDiffCommand(program);
registerDocsCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    const helpShown =
      e.code === 'commander.helpDisplayed' ||
      e.code === 'commander.version' ||
      e.code === 'commander.help';
    process.exitCode = helpShown ? 0 : 2;
  } else if (e instanceof UsageError) {
    console.error(`error: ${e.message}`);
    process.exitCode = 2;
  } else {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  }
}
