// The version gate of `evgen generate` and `evgen diff --check-version`: the package version in
// spec/CHANGELOG.md must satisfy the diff against the last release. That is the release its
// section names (`Base: x.y.z at <commit>`), or, for a section naming none (the first release),
// the version itself as of the commit that added its heading: so a change after it needs a new
// heading, whoever forgets to write one.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { diffSpecs } from './diff.js';
import { SpecError } from '../generator/spec/diagnostics.js';
import { checkoutSpec, loadVersion, UsageError } from './input.js';
import type { Change } from './model.js';
import { bump, CHANGELOG, readRelease, requiredLevel, satisfies, type Level } from './release.js';

export interface GateResult {
  readonly ok: boolean;
  readonly version: string;
  readonly level: Level;
  readonly changes: readonly Change[];
  readonly message: string;
  /** Passed without checking: the message says why. */
  readonly warning?: boolean;
}

/** The oldest commit whose CHANGELOG.md added `## version`, or null (not committed, or no git). */
async function headingAddedAt(specDir: string, version: string): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)(
      'git',
      ['log', '--format=%h', `-S## ${version}`, '--', CHANGELOG],
      { cwd: specDir },
    );
    return stdout.trim().split('\n').filter(Boolean).pop() ?? null;
  } catch {
    return null;
  }
}

export async function checkPackageVersion(specDir: string): Promise<GateResult> {
  const declared = await readRelease(specDir);
  const addedAt = declared.base ? null : await headingAddedAt(specDir, declared.version);
  const base = declared.base ?? (addedAt ? { version: declared.version, commit: addedAt } : null);
  if (!base)
    return {
      ok: true,
      version: declared.version,
      level: 'none',
      changes: [],
      message: `${declared.version}: not released yet (its heading is not committed), nothing to diff against`,
    };
  const release = { version: declared.version, base };
  const head = await loadVersion(specDir);
  // A base that cannot be read (a spec format change since, or a commit this clone lacks) leaves
  // nothing to compare: say so and pass rather than block every later change.
  const unreadable = (why: string): GateResult => ({
    ok: true,
    warning: true,
    version: release.version,
    level: 'none',
    changes: [],
    message:
      `warning: the spec of ${release.base.version} at ${release.base.commit} cannot be read, so the package version is not checked; ` +
      `record a newer base ("Base: ${release.base.version} at <commit>") in spec/${CHANGELOG}: ${why}`,
  });
  let checkout;
  try {
    checkout = await checkoutSpec(release.base.commit, specDir);
  } catch (e) {
    if (e instanceof UsageError) return unreadable(e.message);
    throw e;
  }
  try {
    const base = await loadVersion(checkout.specDir, release.base.commit).catch((e: unknown) => {
      if (e instanceof SpecError) return e;
      throw e;
    });
    if (base instanceof SpecError) return unreadable(base.message);
    const changes = await diffSpecs(base, head);
    const level = requiredLevel(changes);
    const ok = satisfies(release.version, release.base.version, level);
    const need = level === 'none' ? release.base.version : bump(release.base.version, level);
    return {
      ok,
      version: release.version,
      level,
      changes,
      message: ok
        ? `package version ${release.version} satisfies the diff against ${release.base.version} (${release.base.commit}): ${level === 'none' ? 'no change' : `a ${level} change`}`
        : `package version ${release.version} does not satisfy the diff against ${release.base.version} (${release.base.commit}): ` +
          `${changes.length} change(s) need a ${level} version, at least ${need} (run: npx evgen diff --base ${release.base.commit})` +
          // The version written is the released one: a new heading is what is missing.
          (release.version !== release.base.version
            ? ''
            : `; add a heading "## ${need}" with the line "Base: ${release.base.version} at ${release.base.commit}" to spec/${CHANGELOG}`),
    };
  } finally {
    await checkout.dispose();
  }
}
