// Where the compiled CLI lives and whether it is still what the sources say (shared by bin.js,
// which must decide quickly, and build.mjs, which writes the manifest this reads).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUILD_DIR = join(ROOT, '.build');
export const MANIFEST = 'manifest.json';

/**
 * Whether every input of the build in `buildDir` (paths relative to `root`) still has the size
 * and mtime it had when built. A new source file is imported by a changed one, so it counts too.
 */
export function buildIsCurrent(buildDir = BUILD_DIR, root = ROOT) {
  let inputs;
  try {
    ({ inputs } = JSON.parse(readFileSync(join(buildDir, MANIFEST), 'utf8')));
  } catch {
    return false;
  }
  return inputs.every(([path, mtimeMs, size]) => {
    const s = statSync(join(root, path), { throwIfNoEntry: false });
    return s !== undefined && s.mtimeMs === mtimeMs && s.size === size;
  });
}
