// The evgen command line: help on every command, and the exit codes of check and validate.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, projectIr } from '../../support/ir.js';

const run = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'node',
      [join(PROJECT_ROOT, 'src/cli/bin.js'), ...args],
      { cwd: PROJECT_ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
};

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

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
    await writeFile(join(out, 'README.md'), 'mine\n');
    const { code, stderr } = await run('check', '--out', out);
    expect(code).toBe(1);
    expect(stderr).toContain('different src/codecs.ts');
    expect(stderr).toContain('--- generated (spec)\n      +++ on disk\n      @@ ');
    expect(stderr).toContain('+ // hand edit');
    expect(stderr).toContain(
      'run: npx evgen generate\n  it overwrites the hand edits in src/codecs.ts: to keep an edit, make it in spec/ or templates/ instead\n  it refuses to run beside README.md, which evgen did not write: move them away (or pass --force to keep them)',
    );
  });

  it('generate --out refuses a folder holding foreign files in one line, and --force keeps them', async () => {
    const out = await mkdtemp(join(tmpdir(), 'evgen-cli-'));
    temps.push(out);
    await writeFile(join(out, 'README.md'), 'mine\n');
    const refused = await run('generate', '--out', out, '--no-typecheck');
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toContain(
      `${out} holds README.md, which evgen did not write: generate into a folder of its own, or pass --force to write anyway and keep such files`,
    );
    expect((await run('generate', '--out', out, '--no-typecheck', '--force')).code).toBe(0);
    expect(await readFile(join(out, 'README.md'), 'utf8')).toBe('mine\n');
  });

  it('exits 2 on wrong usage', async () => {
    expect((await run('generat')).code).toBe(2);
  });
});
