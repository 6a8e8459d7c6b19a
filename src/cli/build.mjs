// Compiles the CLI and everything it loads (src/cli, browser, diff, generator, reference,
// runtime, generated/src) to JavaScript under .build/, one output file per source at the same depth below
// the project root (so `new URL('../..', import.meta.url)` still finds it), with esbuild: no type
// check (that is `npm run typecheck`), about a second. `@evgen/*` imports point at the compiled
// copies; JSON imports are inlined; packages stay imports, so each output depends on its own
// source (and the JSON it inlines) only. .build/manifest.json records every input's size, mtime
// and content hash, and each output's inputs: bin.js tells from it whether the build is still what
// the sources say, and `rebuild` compiles again only the outputs whose inputs changed (a checkout
// of a few files: a fraction of a second).
// Runs on `npm install` (prepare) and `npm run build`: `node src/cli/build.mjs [outDir]`.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import {
  BUILD_DIR,
  MANIFEST_VERSION,
  ROOT,
  buildIsCurrent,
  buildState,
  hashFile,
  writeManifest,
} from './build-state.js';

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
  [/^@evgen\/runtime\/internal$/, 'runtime/internal.js'],
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

const rel = (p) => relative(ROOT, resolve(p)).split('\\').join('/');
/** This script is an input of every output: a change of how they are compiled compiles them all. */
const RECIPE = rel(fileURLToPath(import.meta.url));

/** Compiles `entries` (name → source) into `dir`; each output's name and its inputs (paths from the root). */
async function compile(entries, dir, outDir, outFileOf) {
  const result = await esbuild({
    entryPoints: entries,
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    // Relative paths between outputs are the same in the temporary folder and in outDir.
    plugins: [importsPlugin(outDir, outFileOf)],
  });
  const nameOf = new Map(Object.entries(entries).map(([name, src]) => [rel(src), name]));
  const outputs = {};
  for (const o of Object.values(result.metafile.outputs))
    if (o.entryPoint)
      outputs[nameOf.get(rel(o.entryPoint))] = [...Object.keys(o.inputs).map(rel), RECIPE].sort();
  return outputs;
}

/** [path, mtimeMs, size, hash] of each input the outputs read. */
function inputsOf(outputs, known = new Map()) {
  const paths = [...new Set(Object.values(outputs).flat())].sort();
  return paths.map((p) => {
    const hit = known.get(p);
    if (hit) return hit;
    const s = statSync(join(ROOT, p));
    return [p, s.mtimeMs, s.size, hashFile(join(ROOT, p))];
  });
}

const outFilesOf = (entries, outDir) =>
  new Map(Object.entries(entries).map(([out, src]) => [src, join(outDir, `${out}.js`)]));

export async function build(outDir = BUILD_DIR) {
  const entries = entryPoints();
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const outputs = await compile(entries, tmp, outDir, outFilesOf(entries, outDir));
  const inputs = inputsOf(outputs);
  writeManifest(tmp, { version: MANIFEST_VERSION, inputs, outputs });
  // Swapped in whole, so a command starting meanwhile sees the old build, none, or this one.
  const old = `${outDir}.old-${process.pid}`;
  if (existsSync(outDir)) renameSync(outDir, old);
  try {
    renameSync(tmp, outDir);
  } catch (e) {
    // Another process built it meanwhile (two commands started on a missing build): keep theirs.
    rmSync(tmp, { recursive: true, force: true });
    if (!buildIsCurrent(outDir)) throw e;
  }
  rmSync(old, { recursive: true, force: true });
  return { files: Object.keys(entries).length, inputs: inputs.length };
}

/**
 * Brings a stale build up to date: compiles again the outputs whose inputs changed and the new
 * sources, deletes the outputs of deleted ones; a missing build (or one of an older format) is
 * built whole. Each output is renamed into place, and the manifest written last, so a command
 * starting meanwhile runs the old output or the new one. Returns what it compiled.
 */
export async function rebuild(outDir = BUILD_DIR) {
  const state = buildState(outDir);
  if (state.missing) return { ...(await build(outDir)), whole: true };
  if (state.changed.length === 0) return { files: 0, whole: false };
  const changed = new Set(state.changed);
  const { manifest } = state;
  const entries = entryPoints();
  const stale = Object.fromEntries(
    Object.entries(entries).filter(
      ([name]) => !manifest.outputs[name] || manifest.outputs[name].some((i) => changed.has(i)),
    ),
  );
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const compiled =
    Object.keys(stale).length > 0
      ? await compile(stale, tmp, outDir, outFilesOf(entries, outDir))
      : {};
  for (const name of Object.keys(compiled)) {
    const to = join(outDir, `${name}.js`);
    mkdirSync(dirname(to), { recursive: true });
    renameSync(join(tmp, `${name}.js`), to);
  }
  rmSync(tmp, { recursive: true, force: true });
  const outputs = { ...manifest.outputs, ...compiled };
  for (const name of Object.keys(outputs))
    if (!(name in entries)) {
      rmSync(join(outDir, `${name}.js`), { force: true });
      delete outputs[name];
    }
  const known = new Map(manifest.inputs.filter(([p]) => !changed.has(p)).map((i) => [i[0], i]));
  writeManifest(outDir, { version: MANIFEST_VERSION, inputs: inputsOf(outputs, known), outputs });
  return { files: Object.keys(compiled).length, whole: false };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const out = process.argv[2] ? resolve(process.argv[2]) : BUILD_DIR;
  const { files } = await build(out);
  console.log(
    `built ${files} files into ${relative(ROOT, out) || '.'} in ${Math.round(performance.now() - started)} ms`,
  );
}
