// evgen: the command line. Exit codes: 0 success; 1 the spec is invalid, generated/ is stale, or
// a command failed; 2 wrong usage.
import { CommanderError } from 'commander';
import { createProgram } from './program.js';
import { UsageError } from './usage.js';

try {
  await createProgram().parseAsync(process.argv);
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
