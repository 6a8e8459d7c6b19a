// The evgen command line: help on every command, and the exit codes of check and validate.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectIr } from '../../support/ir.js';
import { runEvgen } from '../../support/evgen.js';
import { removeSpecCopies, specCopy } from '../../support/spec-copy.js';

const run = (...args: string[]) => runEvgen(args);

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));
afterAll(removeSpecCopies);

describe('evgen CLI', () => {
  it('describes every command and the exit codes', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    for (const c of ['generate', 'check', 'validate']) expect(stdout).toContain(c);
    expect(stdout).toContain('Exit codes:');
  });

  it('describes every option of generate', async () => {
    const { code, stdout } = await run('generate', '--help');
    expect(code).toBe(0);
    for (const o of [
      '--spec <dir>',
      '--templates <dir>',
      '--out <dir>',
      '--no-typecheck',
      '--force',
    ])
      expect(stdout).toContain(o);
  });

  it('validate reports what the spec holds', async () => {
    const ir = await projectIr();
    const { code, stdout } = await run('validate');
    expect(code).toBe(0);
    expect(stdout).toContain(
      `spec is valid: ${ir.operations.length} operations, ${ir.types.length} types, ${ir.gaps.length} gaps`,
    );
  });

  it('check exits 1, shows the hand edit as a hunk, and names the files generate would overwrite', async () => {
    const out = await mkdtemp(join(tmpdir(), 'evgen-cli-'));
    temps.push(out);
    expect((await run('generate', '--out', out, '--no-typecheck')).code).toBe(0);
    expect((await run('check', '--out', out)).code).toBe(0);
    const file = join(out, 'src/codecs.ts');
    await writeFile(file, `${await readFile(file, 'utf8')}// hand edit\n`);
    await writeFile(join(out, 'NOTES.md'), 'mine\n');
    const { code, stderr } = await run('check', '--out', out);
    expect(code).toBe(1);
    expect(stderr).toContain('different src/codecs.ts');
    expect(stderr).toContain('--- generated (spec)\n      +++ on disk\n      @@ ');
    expect(stderr).toContain('+ // hand edit');
    expect(stderr).toContain(
      'run: npx evgen generate\n  it overwrites the hand edits in src/codecs.ts: to keep an edit, make it in spec/ or templates/ instead\n  it refuses to run beside NOTES.md, which evgen did not write: move them away (or pass --force to keep them)',
    );
  });

  it('check tells a spec change (run generate) from a hand edit', async () => {
    const out = await mkdtemp(join(tmpdir(), 'evgen-cli-'));
    temps.push(out);
    expect((await run('generate', '--out', out, '--no-typecheck')).code).toBe(0);
    const spec = await specCopy([
      {
        file: 'types/booking.yaml',
        from: '      - { name: IsTest, type: boolean }',
        to: '      - { name: IsTest, type: boolean }\n      - { name: Channel, type: string, optional: true }',
      },
    ]);
    const { code, stderr } = await run('check', '--out', out, '--spec', spec);
    expect(code).toBe(1);
    expect(stderr).toContain('different src/types.ts (spec/ or templates/ changed: run generate)');
    expect(stderr).not.toContain('hand edit');
    expect(stderr).toMatch(
      /spec\/ or templates\/ changed since generated\/ was written: it updates src\/codecs\.ts, .*src\/types\.ts/,
    );
  });

  it('generate --out refuses a folder holding foreign files in one line, and --force keeps them', async () => {
    const out = await mkdtemp(join(tmpdir(), 'evgen-cli-'));
    temps.push(out);
    await writeFile(join(out, 'NOTES.md'), 'mine\n');
    const refused = await run('generate', '--out', out, '--no-typecheck');
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toContain(
      `${out} holds NOTES.md, which evgen did not write: generate into a folder of its own, or pass --force to write anyway and keep such files`,
    );
    expect((await run('generate', '--out', out, '--no-typecheck', '--force')).code).toBe(0);
    expect(await readFile(join(out, 'NOTES.md'), 'utf8')).toBe('mine\n');
  });

  it('exits 2 on wrong usage', async () => {
    expect((await run('generat')).code).toBe(2);
  });

  it('generates a copy under another package name and repository, which check then accepts', async () => {
    const out = await mkdtemp(join(tmpdir(), 'evgen-team-'));
    temps.push(out);
    const team = [
      '--package-name',
      '@acme/events',
      '--repository',
      'https://git.acme.example/events.git',
    ];
    expect((await run('generate', '--out', out, '--no-typecheck', ...team)).code).toBe(0);
    const pkg = JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(pkg).toMatchObject({
      name: '@acme/events',
      repository: { type: 'git', url: 'https://git.acme.example/events.git' },
      publishConfig: { access: 'public' },
    });
    const readme = await readFile(join(out, 'README.md'), 'utf8');
    expect(readme).toContain('# @acme/events\n');
    expect(readme).toContain(`from '@acme/events/client'`);
    expect(readme).not.toContain('@evgen/event-management');
    expect((await run('check', '--out', out, ...team)).code).toBe(0);
    const plain = await run('check', '--out', out);
    expect([plain.code, plain.stderr]).toEqual([
      1,
      expect.stringContaining('different package.json'),
    ]);
  });

  it.each([
    [
      ['--package-name', 'Acme Events', '--repository', 'x'],
      'error: --package-name "Acme Events" is not an npm package name (such as @acme/events)\n',
    ],
    [
      ['--package-name', '@acme/events'],
      'error: --package-name @acme/events needs --repository <url>: the repository it is published from\n',
    ],
  ])('refuses %j with one line and exit code 2', async (args, stderr) => {
    expect(await run('generate', '--out', join(tmpdir(), 'evgen-never'), ...args)).toMatchObject({
      code: 2,
      stderr,
    });
  });
});
