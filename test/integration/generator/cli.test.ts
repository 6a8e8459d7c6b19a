// The evgen command line: help on every command, and the exit codes of check and validate.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../support/ir.js';

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
    for (const o of ['--spec <dir>', '--templates <dir>', '--out <dir>', '--no-typecheck'])
      expect(stdout).toContain(o);
  });

  it('validate reports what the spec holds', async () => {
    const { code, stdout } = await run('validate');
    expect(code).toBe(0);
    expect(stdout).toMatch(/spec is valid: 28 operations, 45 types, \d+ gaps/);
  });

  it('check exits 1 and names a hand-edited file, with the fix', async () => {
    const out = await mkdtemp(join(tmpdir(), 'evgen-cli-'));
    temps.push(out);
    expect((await run('generate', '--out', out, '--no-typecheck')).code).toBe(0);
    expect((await run('check', '--out', out)).code).toBe(0);
    const file = join(out, 'src/codecs.ts');
    await writeFile(file, `${await readFile(file, 'utf8')}// hand edit\n`);
    const { code, stderr } = await run('check', '--out', out);
    expect(code).toBe(1);
    expect(stderr).toContain('different src/codecs.ts');
    expect(stderr).toContain('- // hand edit');
    expect(stderr).toContain('run: npx evgen generate');
  });

  it('exits 2 on wrong usage', async () => {
    expect((await run('generat')).code).toBe(2);
  });
});
