// docs/reference/cli.md: every evgen command, its arguments and options, their defaults and
// environment variables, read from the commander definitions `evgen` itself runs (program.ts).
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { EXIT_CODES, createProgram } from '../cli/program.js';
import { cell, code, generatedHeader, table } from './markdown.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every command below `cmd`, depth first, in the order they were defined. */
const commandsOf = (cmd: Command): Command[] => cmd.commands.flatMap((c) => [c, ...commandsOf(c)]);

const fullName = (cmd: Command): string =>
  cmd.parent ? `${fullName(cmd.parent)} ${cmd.name()}` : cmd.name();

/** A default as a reader would type it: paths inside the project relative to its root. */
function defaultOf(o: Option): string {
  if (o.negate) return '';
  if (o.defaultValueDescription !== undefined) return code(o.defaultValueDescription);
  const v: unknown = o.defaultValue;
  if (v === undefined || v === false) return '';
  if (typeof v === 'string' && isAbsolute(v)) return code(relative(PROJECT_ROOT, v) || '.');
  return code(Array.isArray(v) ? v.join(',') : JSON.stringify(v).replace(/^"(.*)"$/, '$1'));
}

function optionRow(o: Option): string[] {
  const notes = [
    o.mandatory ? 'Required.' : '',
    o.argChoices ? `(${o.argChoices.map(code).join(', ')})` : '',
  ].filter((n) => n !== '');
  return [
    code(o.flags),
    cell([o.description, ...notes].join(' ')),
    defaultOf(o),
    o.envVar ? code(o.envVar) : '',
  ];
}

/** What `--help` prints after the options (exit codes of a command, for one). */
function afterHelp(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), getOutHelpWidth: () => 100 });
  cmd.outputHelp();
  return out.slice(cmd.helpInformation().length).trim();
}

function commandSection(cmd: Command): string {
  const args = cmd.registeredArguments.map((a) => [code(a.name()), cell(a.description)]);
  const options = cmd.options.filter((o) => !o.hidden).map(optionRow);
  const after = cmd.parent?.parent ? '' : afterHelp(cmd);
  return [
    `## ${fullName(cmd)}`,
    '',
    cell(cmd.description()),
    '',
    '```',
    `${fullName(cmd)} ${cmd.usage()}`,
    '```',
    ...(args.length > 0 ? ['', table(['argument', 'meaning'], args)] : []),
    ...(options.length > 0
      ? ['', table(['option', 'meaning', 'default', 'environment'], options)]
      : []),
    ...(after ? ['', '```', after, '```'] : []),
  ].join('\n');
}

export function cliPage(): string {
  const program = createProgram();
  const commands = commandsOf(program).filter((c) => c.commands.length === 0);
  return [
    generatedHeader('the commander definitions (src/cli/program.ts)'),
    '',
    '# CLI reference',
    '',
    cell(program.description()),
    '',
    `Every command takes \`--help\`. Run from a clone as \`npx evgen <command>\` (\`npm start\` is \`evgen serve\`).`,
    '',
    table(
      ['command', 'what it does'],
      commands.map((c) => [
        `[${code(fullName(c))}](#${fullName(c).replace(/ /g, '-')})`,
        cell(c.description()),
      ]),
    ),
    '',
    '## Exit codes',
    '',
    table(
      ['code', 'meaning'],
      EXIT_CODES.map(([n, what]) => [String(n), cell(what)]),
    ),
    '',
    commands.map(commandSection).join('\n\n'),
    '',
  ].join('\n');
}
