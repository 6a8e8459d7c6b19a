// Where the compiled CLI lives and whether it is still what the sources say (shared by bin.js,
// which must decide quickly, and build.mjs, which writes the manifest this reads). Content
// decides: the manifest records each input's hash, and a file whose size and mtime still match
// the manifest is not read again (git's index does the same); one whose stat changed is hashed,
// so a checkout or a clone that rewrites files without changing them leaves the build current
// (and the manifest remembers the new stat, so the next start takes the quick path again).
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** EVGEN_BUILD_DIR: another build folder, one level below the root like .build/ (tests). */
export const BUILD_DIR = process.env.EVGEN_BUILD_DIR ?? join(ROOT, '.build');
export const MANIFEST = 'manifest.json';
/** The manifest's format: inputs [path, mtimeMs, size, sha256], outputs entry → inputs. */
export const MANIFEST_VERSION = 2;

export function hashFile(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 32);
}

export function readManifest(buildDir = BUILD_DIR) {
  try {
    const m = JSON.parse(readFileSync(join(buildDir, MANIFEST), 'utf8'));
    return m.version === MANIFEST_VERSION ? m : undefined;
  } catch {
    return undefined;
  }
}

export function writeManifest(buildDir, manifest) {
  const tmp = join(buildDir, `${MANIFEST}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(manifest)}\n`);
  renameSync(tmp, join(buildDir, MANIFEST));
}

/**
 * The state of the build in `buildDir` (paths relative to `root`): `missing` (no manifest of this
 * format), or the inputs whose content changed (deleted ones included). A new source file is
 * imported by a changed one, so it is found with it.
 */
export function buildState(buildDir = BUILD_DIR, root = ROOT) {
  const manifest = readManifest(buildDir);
  if (!manifest) return { missing: true, changed: [], manifest: undefined };
  const changed = [];
  let restat = false;
  for (const input of manifest.inputs) {
    const [path, mtimeMs, size, hash] = input;
    const abs = join(root, path);
    const s = statSync(abs, { throwIfNoEntry: false });
    if (s === undefined) changed.push(path);
    else if (s.mtimeMs !== mtimeMs || s.size !== size) {
      if (s.size !== size || hashFile(abs) !== hash) changed.push(path);
      else {
        input[1] = s.mtimeMs;
        restat = true;
      }
    }
  }
  // Same content under a new stat (a checkout): remember it, so the next start hashes nothing.
  if (restat && changed.length === 0) {
    try {
      writeManifest(buildDir, manifest);
    } catch {
      // A read-only build is still current; the next start hashes again.
    }
  }
  return { missing: false, changed, manifest };
}

/** Whether the build is what the sources say. */
export function buildIsCurrent(buildDir = BUILD_DIR, root = ROOT) {
  const s = buildState(buildDir, root);
  return !s.missing && s.changed.length === 0;
}
