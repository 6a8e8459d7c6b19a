// Compiles the CLI and everything it loads (src/cli, browser, diff, generator, reference,
// runtime, generated/src) to JavaScript under .build/, one output file per source at the same depth below
// the project root (so `new URL('../..', import.meta.url)` still finds it), with esbuild: no type
// check (that is `npm run typecheck`), about a second. `@evgen/*` imports point at the compiled
// copies; JSON imports are inlined; packages stay imports. .build/manifest.json records every
// input's size and mtime, so bin.js can tell whether the build is still what the sources say.
// Runs on `npm install` (prepare) and `npm run build`: `node src/cli/build.mjs [outDir]`.
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { BUILD_DIR, MANIFEST, ROOT } from './build-state.js';

/** Source folders and where each goes under the build folder. */
const TREES = [
  ['src/bench', 'bench'],
  ['src/browser', 'browser'],
  ['src/cli', 'cli'],
  ['src/diff', 'diff'],
  ['src/docs', 'docs'],
  ['src/generator', 'generator'],
  ['src/proxy', 'proxy'],
  ['src/reference', 'reference'],
  ['src/runtime', 'runtime'],
  ['generated/src', 'generated'],
];
const ALIASES = [
  [/^@evgen\/runtime$/, 'runtime/index.js'],
  [/^@evgen\/event-management$/, 'generated/index.js'],
  [/^@evgen\/event-management\/(.+)$/, 'generated/$1.js'],
];

function entryPoints() {
  const entries = {};
  for (const [from, to] of TREES) {
    for (const file of readdirSync(join(ROOT, from), { recursive: true, encoding: 'utf8' })) {
      // Plain .js files outside the CLI's own (bin.js, this script) are compiled too: a worker
      // thread's entry is one.
      const js = file.endsWith('.js') && from !== 'src/cli';
      if (!js && (!file.endsWith('.ts') || file.endsWith('.d.ts') || file.endsWith('.test.ts')))
        continue;
      if (file.split(/[\\/]/).some((part) => part === 'dist' || part === 'node_modules')) continue;
      entries[join(to, file.replace(/\.[jt]s$/, ''))] = join(ROOT, from, file);
    }
  }
  return entries;
}

/** Every import stays an import, but `@evgen/*` ones point at the compiled copies. */
function importsPlugin(outDir, outFileOf) {
  return {
    name: 'evgen-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point' || args.path.endsWith('.json')) return undefined;
        for (const [pattern, target] of ALIASES) {
          if (!pattern.test(args.path)) continue;
          const from = dirname(outFileOf.get(args.importer));
          const to = join(outDir, args.path.replace(pattern, target));
          const rel = relative(from, to).split('\\').join('/');
          return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
        }
        return { path: args.path, external: true };
      });
    },
  };
}

export async function build(outDir = BUILD_DIR) {
  const entries = entryPoints();
  const outFileOf = new Map(
    Object.entries(entries).map(([out, src]) => [src, join(outDir, `${out}.js`)]),
  );
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const result = await esbuild({
    entryPoints: entries,
    outdir: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    // Relative paths between outputs are the same in the temporary folder and in outDir.
    plugins: [importsPlugin(outDir, outFileOf)],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => relative(ROOT, resolve(p)).split('\\').join('/'))
    .sort()
    .map((p) => {
      const s = statSync(join(ROOT, p));
      return [p, s.mtimeMs, s.size];
    });
  writeFileSync(join(tmp, MANIFEST), `${JSON.stringify({ inputs })}\n`);
  // Swapped in whole, so a command starting meanwhile sees the old build, none (then tsx), or this one.
  const old = `${outDir}.old-${process.pid}`;
  if (existsSync(outDir)) renameSync(outDir, old);
  renameSync(tmp, outDir);
  rmSync(old, { recursive: true, force: true });
  return { files: Object.keys(entries).length, inputs: inputs.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const out = process.argv[2] ? resolve(process.argv[2]) : BUILD_DIR;
  const { files } = await build(out);
  console.log(
    `built ${files} files into ${relative(ROOT, out) || '.'} in ${Math.round(performance.now() - started)} ms`,
  );
}
