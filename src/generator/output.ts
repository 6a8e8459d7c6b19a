// Writing generated files and checking that what is on disk is exactly what the spec produces:
// missing, extra (stale) and different files all count.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { GeneratedFiles } from './pipeline.js';

/** Folders under the output directory that belong to builds and installs, not to the generator. */
const IGNORED = new Set(['node_modules', 'dist']);

export async function listOutputFiles(outDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (IGNORED.has(entry.name) || entry.name.endsWith('.tsbuildinfo')) continue;
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else out.push(relative(outDir, abs).split('\\').join('/'));
    }
  };
  await walk(outDir);
  return out.sort();
}

export interface Difference {
  readonly path: string;
  readonly kind: 'missing' | 'extra' | 'different';
  readonly diff?: string;
}

export async function compareOutput(outDir: string, files: GeneratedFiles): Promise<Difference[]> {
  const onDisk = new Set(await listOutputFiles(outDir));
  const diffs: Difference[] = [];
  for (const [path, want] of files) {
    if (!onDisk.has(path)) {
      diffs.push({ path, kind: 'missing' });
      continue;
    }
    const have = await readFile(join(outDir, path), 'utf8');
    if (have !== want) diffs.push({ path, kind: 'different', diff: shortDiff(have, want) });
  }
  for (const path of onDisk) if (!files.has(path)) diffs.push({ path, kind: 'extra' });
  return diffs.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Writes changed files (via a temporary file and rename) and deletes stale ones. */
export async function writeOutput(outDir: string, files: GeneratedFiles): Promise<Difference[]> {
  const diffs = await compareOutput(outDir, files);
  for (const d of diffs) {
    const abs = join(outDir, d.path);
    if (d.kind === 'extra') {
      await rm(abs);
      continue;
    }
    await mkdir(dirname(abs), { recursive: true });
    const tmp = `${abs}.evgen-tmp`;
    await writeFile(tmp, files.get(d.path)!);
    await rename(tmp, abs);
  }
  return diffs;
}

/** The first differing hunk, trimmed of the common head and tail, at most `max` lines a side. */
export function shortDiff(have: string, want: string, max = 8): string {
  const a = have.split('\n');
  const b = want.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const side = (lines: string[], mark: string) => [
    ...lines.slice(0, max).map((l) => `${mark} ${l}`),
    ...(lines.length > max ? [`${mark} … ${lines.length - max} more line(s)`] : []),
  ];
  return [`@@ line ${head + 1} @@`, ...side(removed, '-'), ...side(added, '+')].join('\n');
}
