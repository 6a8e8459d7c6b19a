// evgen diff's inputs and exit codes: --base is a git ref or any folder holding a spec (whatever
// its name, or a folder with spec/ in it), each line names the file it was read from, and the
// exit code is 0 (nothing at or above --fail-on), 1 (something is) or 2 (usage, a spec that does
// not validate, or any other error: a crash is never read as a verdict).
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as DiffModule from '../../../src/diff/diff.js';
import { runEvgen } from '../../support/evgen.js';
import { SPEC_DIR } from '../../support/ir.js';

// Only the in-process test below uses it: the CLI runs in child processes, unmocked.
const boom = vi.hoisted(() => ({ on: false }));
vi.mock('../../../src/diff/diff.js', async (original) => {
  const real = await original<typeof DiffModule>();
  return {
    ...real,
    diffSpecs: (...args: Parameters<typeof real.diffSpecs>) => {
      if (boom.on) throw new TypeError("Cannot read properties of undefined (reading 'fields')");
      return real.diffSpecs(...args);
    },
  };
});

const exec = promisify(execFile);
let dir: string;
const CREATED = '{ name: CreatedDate, type: dateTime }';
const RENAMED = '{ name: DateCreated, type: dateTime }';
const BOOKING = 'types/booking.yaml';

const lineOf = async (file: string, text: string) =>
  (await readFile(join(dir, file), 'utf8')).split('\n').findIndex((l) => l.includes(text)) + 1;

async function copySpec(to: string, edit?: (text: string) => string) {
  await cp(SPEC_DIR, join(dir, to), { recursive: true });
  if (!edit) return;
  const file = join(dir, to, BOOKING);
  await writeFile(file, edit(await readFile(file, 'utf8')));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-diff-base-'));
  await copySpec('head/spec', (t) => t.replace(CREATED, RENAMED));
  // The old version in a folder of another name, and a spec/ beside it whose lines differ.
  await copySpec('old-spec');
  await copySpec('spec', (t) => `# shifted\n# shifted\n# shifted\n${t}`);
  // A checkout of an older version: a folder holding spec/.
  await copySpec('checkout/spec');
  await mkdir(join(dir, 'empty'));
  await copySpec('broken/spec', (t) => t.replace(CREATED, '{ name: CreatedDate, type: Nope }'));
  await copySpec('no-changelog/spec');
  await rm(join(dir, 'no-changelog/spec/CHANGELOG.md'));
  const git = (...args: string[]) => exec('git', args, { cwd: join(dir, 'checkout') });
  await git('init', '-q');
  await git('add', 'spec');
  await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'spec');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const diff = (...args: string[]) => runEvgen(['diff', ...args], dir);

describe('evgen diff --base: any folder holding a spec, or a git ref', () => {
  const cases = [
    {
      given: 'a folder not named spec, with a spec/ beside it',
      base: 'old-spec',
      read: 'old-spec',
    },
    { given: 'a folder holding spec/', base: 'checkout', read: 'checkout/spec' },
  ];
  for (const c of cases)
    it(`${c.given}: each line names the file it was read from`, async () => {
      const r = await diff('--base', c.base, '--head', 'head/spec');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      const removed = `${c.read}/${BOOKING}:${await lineOf(`${c.read}/${BOOKING}`, CREATED)}`;
      const added = `head/spec/${BOOKING}:${await lineOf(`head/spec/${BOOKING}`, RENAMED)}`;
      expect(r.stdout).toContain(`BREAKING  ${removed}  BookingResponse.CreatedDate removed`);
      expect(r.stdout).toContain(`${added}  BookingResponse.DateCreated added (required)`);
    });

  it('a git ref: lines of the base name the commit and the path in it', async () => {
    const r = await runEvgen(
      ['diff', '--base', 'HEAD', '--head', '../head/spec'],
      join(dir, 'checkout'),
    );
    expect(r.code).toBe(1);
    const line = await lineOf(`checkout/spec/${BOOKING}`, CREATED);
    expect(r.stdout).toContain(
      `BREAKING  HEAD:spec/${BOOKING}:${line}  BookingResponse.CreatedDate removed`,
    );
  });
});

describe('evgen diff exit codes', () => {
  const cases: { given: string; args: string[]; code: number; says: RegExp }[] = [
    {
      given: 'no change',
      args: ['--base', 'old-spec', '--head', 'old-spec'],
      code: 0,
      says: /no changes/,
    },
    {
      given: 'a breaking change',
      args: ['--base', 'old-spec', '--head', 'head/spec'],
      code: 1,
      says: /BREAKING/,
    },
    {
      given: 'a breaking change with --fail-on none',
      args: ['--base', 'old-spec', '--head', 'head/spec', '--fail-on', 'none'],
      code: 0,
      says: /BREAKING/,
    },
    {
      given: 'an unknown option',
      args: ['--bse', 'old-spec'],
      code: 2,
      says: /unknown option '--bse'/,
    },
    {
      given: 'a base that is neither a folder nor a commit',
      args: ['--base', 'no-such-ref', '--head', 'head/spec'],
      code: 2,
      says: /--base no-such-ref: neither a folder nor a commit/,
    },
    {
      given: 'a base folder holding no spec',
      args: ['--base', 'empty', '--head', 'head/spec'],
      code: 2,
      says: /--base empty: a folder holding no spec/,
    },
    {
      given: 'a head spec that does not validate',
      args: ['--base', 'old-spec', '--head', 'broken/spec'],
      code: 2,
      says: /spec\/types\/booking\.yaml:\d+:\d+: unknown type "Nope"/,
    },
    {
      given: 'a base spec that does not validate',
      args: ['--base', 'broken', '--head', 'head/spec'],
      code: 2,
      says: /--base broken: spec has 1 error/,
    },
    {
      given: '--check-version on a spec without CHANGELOG.md',
      args: ['--base', 'old-spec', '--head', 'no-changelog/spec', '--check-version'],
      code: 2,
      says: /CHANGELOG\.md/,
    },
  ];
  for (const c of cases)
    it(`${c.given}: exit ${c.code}`, async () => {
      const r = await diff(...c.args);
      expect(r.code).toBe(c.code);
      expect(c.code === 2 ? r.stderr : r.stdout).toMatch(c.says);
    });

  it('any other error: exit 2, never 1', async () => {
    const { registerDiffCommand } = await import('../../../src/cli/diff-command.js');
    const program = new Command('evgen').exitOverride();
    registerDiffCommand(program);
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
    vi.spyOn(console, 'log').mockImplementation(() => {});
    boom.on = true;
    const was = process.exitCode;
    try {
      await program.parseAsync(
        ['diff', '--base', join(dir, 'old-spec'), '--head', join(dir, 'old-spec')],
        {
          from: 'user',
        },
      );
      expect(process.exitCode).toBe(2);
      expect(errors.join('\n')).toContain(
        "internal error: TypeError: Cannot read properties of undefined (reading 'fields')",
      );
    } finally {
      boom.on = false;
      process.exitCode = was;
      spy.mockRestore();
      vi.restoreAllMocks();
    }
  });
});
