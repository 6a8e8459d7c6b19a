// The compiled CLI (src/cli/build.mjs, run by npm install and npm run build): a build in a
// folder of its own beside .build/ runs the generator, the reference service's commands and the
// conformance command exactly as the sources do; its manifest tells a current build from a stale
// one by content, and a stale one is compiled again where its sources changed. (CI runs every CLI
// test against .build/ with EVGEN_BUILD=required.)
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIsCurrent } from '../../../src/cli/build-state.js';
import { rebuild } from '../../../src/cli/build.mjs';
import { PROJECT_ROOT } from '../../support/ir.js';

const exec = promisify(execFile);
// One level below the project root, like .build/, so the compiled code finds the root the same way.
const out = join(PROJECT_ROOT, `.build-test-${process.pid}`);
let scratch: string;
const compiled = (...args: string[]) =>
  exec('node', [join(out, 'cli/main.js'), ...args], { cwd: scratch });

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'evgen-build-'));
  await exec('node', [join(PROJECT_ROOT, 'src/cli/build.mjs'), out]);
}, 60_000);
afterAll(() =>
  Promise.all([rm(out, { recursive: true, force: true }), rm(scratch, { recursive: true })]),
);

describe('the compiled CLI', () => {
  it('generates exactly what the committed generated/ holds', async () => {
    const gen = join(scratch, 'gen');
    await compiled('generate', '--out', gen, '--no-typecheck');
    // check names the folder relative to where it runs (scratch, here).
    expect((await compiled('check', '--out', join(PROJECT_ROOT, 'generated'))).stdout).toMatch(
      /\/generated\/ is current/,
    );
    const want = await readFile(join(PROJECT_ROOT, 'generated/src/client.ts'), 'utf8');
    expect(await readFile(join(gen, 'src/client.ts'), 'utf8')).toBe(want);
  });

  it('runs the reference service commands: seed and keys', async () => {
    const db = join(scratch, 'events.sqlite');
    expect((await compiled('seed', '--db', db, '--events', '2', '--bookings', '5')).stdout).toMatch(
      /^seeded 2 events, 5 bookings/,
    );
    const key = JSON.parse(
      (await compiled('keys', 'create', '--name', 'ci', '--json', '--db', db)).stdout,
    ) as { apiKey: string };
    expect((await compiled('keys', 'list', '--db', db)).stdout).toContain(`${key.apiKey}  ci`);
  });

  it('passes the conformance suite against a reference service of its own', async () => {
    const { stdout } = await compiled('conformance');
    expect(stdout).toMatch(/^GetBookingsBatch\s+pass\s+pass\s+pass\s+pass\s*$/m);
    expect(stdout).toMatch(/\n\d+ passed, 0 failed, 0 skipped/);
  }, 120_000);

  it('keeps usage errors at one line and exit code 2', async () => {
    const e = (await compiled('serve', '--port', '70000').catch((x: unknown) => x)) as {
      code: number;
      stderr: string;
    };
    expect([e.code, e.stderr.split('\n').length]).toEqual([2, 2]);
  });
});

describe('staleness: content decides, and a stale build is compiled again', () => {
  type Manifest = {
    version: number;
    inputs: [string, number, number, string][];
    outputs: Record<string, string[]>;
  };
  const manifestOf = async () =>
    JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Manifest;
  const save = (m: Manifest) => writeFile(join(out, 'manifest.json'), JSON.stringify(m));
  const input = (m: Manifest, path: string) => m.inputs.find(([p]) => p === path)!;

  it('a fresh build is current, and lists each input with its hash and each output with its inputs', async () => {
    expect(buildIsCurrent(out)).toBe(true);
    const m = await manifestOf();
    expect(m.inputs.map(([p]) => p)).toEqual(
      expect.arrayContaining(['src/cli/main.ts', 'src/runtime/index.ts', 'package.json']),
    );
    // Packages and other sources stay imports: an output reads its source, and how it is compiled.
    expect(m.outputs['cli/main']).toEqual(['src/cli/build.mjs', 'src/cli/main.ts']);
  });

  it('stays current when a checkout rewrote a file without changing it, and remembers the new stat', async () => {
    const m = await manifestOf();
    input(m, 'src/cli/main.ts')[1] -= 1000; // the file's mtime is not the one built from
    await save(m);
    expect(buildIsCurrent(out)).toBe(true);
    expect(input(await manifestOf(), 'src/cli/main.ts')[1]).toBe(
      (await stat(join(PROJECT_ROOT, 'src/cli/main.ts'))).mtimeMs,
    );
  });

  it('is stale when a file changed, and rebuild compiles again only what reads it', async () => {
    const m = await manifestOf();
    const main = input(m, 'src/cli/main.ts');
    [main[1], main[3]] = [main[1] - 1000, 'not-the-content-built-from'];
    await save(m);
    expect(buildIsCurrent(out)).toBe(false);
    const before = (await stat(join(out, 'runtime/index.js'))).mtimeMs;
    expect(await rebuild(out)).toEqual({ files: 1, whole: false });
    expect(buildIsCurrent(out)).toBe(true);
    expect((await stat(join(out, 'runtime/index.js'))).mtimeMs).toBe(before);
    expect((await compiled('--help')).stdout).toMatch(/^Usage: evgen /);
  });

  it('compiles every output again when build.mjs changed (how they are compiled)', async () => {
    const m = await manifestOf();
    const recipe = input(m, 'src/cli/build.mjs');
    [recipe[1], recipe[3]] = [recipe[1] - 1000, 'another-recipe'];
    await save(m);
    expect(buildIsCurrent(out)).toBe(false);
    expect(await rebuild(out)).toEqual({ files: Object.keys(m.outputs).length, whole: false });
    expect(buildIsCurrent(out)).toBe(true);
  });

  it('is stale when an input is gone or the manifest is missing; rebuild then builds it whole', async () => {
    const m = await manifestOf();
    await save({ ...m, inputs: [...m.inputs, ['src/cli/deleted.ts', 0, 0, '']] });
    expect(buildIsCurrent(out)).toBe(false);
    await rm(join(out, 'manifest.json'));
    expect(buildIsCurrent(out)).toBe(false);
    expect((await rebuild(out)).whole).toBe(true);
    expect(buildIsCurrent(out)).toBe(true);
  });

  it('bin.js compiles a stale build again and runs it, never through tsx (EVGEN_BUILD=required)', async () => {
    const m = await manifestOf();
    const options = input(m, 'src/cli/options.ts');
    [options[1], options[3]] = [options[1] - 1000, 'changed'];
    await save(m);
    const before = (await stat(join(out, 'cli/options.js'))).mtimeMs;
    const { stdout, stderr } = await exec(
      'node',
      [join(PROJECT_ROOT, 'src/cli/bin.js'), '--help'],
      { cwd: scratch, env: { ...process.env, EVGEN_BUILD_DIR: out, EVGEN_BUILD: 'required' } },
    );
    expect([stdout, stderr]).toEqual([expect.stringMatching(/^Usage: evgen /), '']);
    expect((await stat(join(out, 'cli/options.js'))).mtimeMs).toBeGreaterThan(before);
    expect(input(await manifestOf(), 'src/cli/options.ts')[3]).not.toBe('changed');
    expect(buildIsCurrent(out)).toBe(true);
  });
});

// npx runs a name it finds in node_modules/.bin at once; when the project's own package.json has a
// bin of that name, it installs the project into its cache first (reading the whole installed
// tree: about 0.4 s more per call here). So evgen is the bin of a workspace (src/cli), not of the
// root, and npm links it.
describe('npx evgen', () => {
  it('finds evgen in node_modules/.bin, linked to src/cli/bin.js, and no root bin', async () => {
    const root = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      bin?: unknown;
      workspaces: string[];
    };
    expect(root.bin).toBeUndefined();
    expect(root.workspaces).toContain('src/cli');
    const linked = await realpath(join(PROJECT_ROOT, 'node_modules/.bin/evgen'));
    expect(linked).toBe(await realpath(join(PROJECT_ROOT, 'src/cli/bin.js')));
  });

  it('runs the CLI', async () => {
    const { stdout } = await exec('npx', ['evgen', '--help'], { cwd: PROJECT_ROOT });
    expect(stdout).toMatch(/^Usage: evgen /);
  });
});
