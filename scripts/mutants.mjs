#!/usr/bin/env node
// Runs a corpus of mutations (test/mutants/*.json) against the tests that claim each behaviour:
// every mutation must make at least one of its tests fail ("killed"); one that leaves them all
// passing ("survived") names a promise no test holds. Each mutation replaces one exact text in one
// source file, runs its tests, and puts the file back (also on Ctrl-C). Slow (a mutation that makes
// a test wait runs to its time-out): a maintainer's tool, not part of `npm test`, which only checks
// that every mutation still applies (test/unit/mutants.test.ts).
//   node scripts/mutants.mjs [corpus.json] [name-filter]
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const corpus = process.argv[2] ?? join(ROOT, 'test/mutants/reference-service.json');
const filter = process.argv[3] ?? '';
const mutants = JSON.parse(readFileSync(corpus, 'utf8')).filter((m) => m.name.includes(filter));

let restore = () => {};
process.on('SIGINT', () => (restore(), process.exit(130)));

const survived = [];
for (const m of mutants) {
  const path = join(ROOT, m.file);
  const original = readFileSync(path, 'utf8');
  if (original.split(m.find).length !== 2) {
    console.log(`stale     ${m.name}: its text is not in ${m.file} exactly once`);
    survived.push(m.name);
    continue;
  }
  restore = () => writeFileSync(path, original);
  writeFileSync(
    path,
    original.replace(m.find, () => m.replace),
  );
  const started = Date.now();
  // EVGEN_BUILD unset: a CLI the tests start runs the mutated sources, not the build.
  const env = { ...process.env, EVGEN_BUILD: '' };
  const args = ['vitest', 'run', '--config', 'test/vitest.config.ts', ...m.tests];
  const run = spawnSync('npx', args, { cwd: ROOT, encoding: 'utf8', env });
  restore();
  restore = () => {};
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const killed = run.status !== 0;
  if (!killed) survived.push(m.name);
  console.log(`${killed ? 'killed   ' : 'SURVIVED '} ${m.name} (${seconds} s): ${m.claim}`);
}
// Restored files are newer than the build: bring it up to date for the CLI.
spawnSync('node', ['src/cli/build.mjs'], { cwd: ROOT, stdio: 'ignore' });
console.log(`\n${mutants.length - survived.length} of ${mutants.length} killed`);
if (survived.length > 0) {
  console.log(`not killed: ${survived.join(', ')}`);
  process.exitCode = 1;
}
