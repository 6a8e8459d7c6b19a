#!/usr/bin/env node
// `npm run lint`: eslint with typed rules over the whole tree, on a fresh clone as on a warm one.
// generated/ is its own project and sees @evgen/runtime through the runtime's published
// declarations (src/runtime/dist), which npm install does not build: without them every call into
// the runtime lints as an unresolved type. So the declarations are built first when missing or
// older than a runtime source, and generated/'s cache lives in a folder named after them: eslint's
// cache keys on each file's own text, and findings cached against other declarations (or none)
// must not be reused. CI lints without the cache (.ci/run).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNTIME = join(ROOT, 'src/runtime');
const DIST = join(RUNTIME, 'dist');
const CACHES = join(ROOT, 'node_modules/.cache/eslint');

/** Files below `dir` whose names end in `suffix`, outside the `skip` folders, sorted. */
const files = (dir, suffix, skip = null) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix) && !skip?.test(f))
    .sort()
    .map((f) => join(dir, f));

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const newestSource = Math.max(
  ...files(RUNTIME, '.ts', /^(dist|node_modules)\//).map((f) => statSync(f).mtimeMs),
);
const declarations = join(DIST, 'index.d.ts');
if (!existsSync(declarations) || statSync(declarations).mtimeMs < newestSource) {
  console.error('lint: building @evgen/runtime declarations (generated/ is linted against them)');
  run('npm', ['run', 'build', '-w', '@evgen/runtime', '--silent']);
}

const hash = createHash('sha1');
for (const f of files(DIST, '.d.ts')) hash.update(relative(DIST, f)).update(readFileSync(f));
// generated/ and the rest are two TypeScript programs (generated/tsconfig.json and the root's),
// each linted with a cache of its own: only generated/ sees the declarations, so only its cache is
// named after them, and the rest's survives a runtime rebuild.
const parts = [
  { cache: `generated-${hash.digest('hex').slice(0, 12)}`, target: ['generated'] },
  { cache: 'rest', target: ['--ignore-pattern', 'generated/**', '.'] },
];
// One cache a part: the folders of earlier declarations (and older layouts) go.
if (existsSync(CACHES))
  for (const old of readdirSync(CACHES))
    if (!parts.some((p) => p.cache === old))
      rmSync(join(CACHES, old), { recursive: true, force: true });
for (const { cache, target } of parts) {
  const dir = join(CACHES, cache);
  mkdirSync(dir, { recursive: true });
  run('npx', [
    'eslint',
    '--cache',
    '--cache-location',
    `${dir}/`,
    ...process.argv.slice(2),
    ...target,
  ]);
}
