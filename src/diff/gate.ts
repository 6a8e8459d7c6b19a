// The version gate of `evgen generate` and `evgen diff --check-version`: the package version in
// spec/CHANGELOG.md must satisfy the diff against the release it names as its base.
import { diffSpecs } from './diff.js';
import { checkoutSpec, loadVersion } from './input.js';
import type { Change } from './model.js';
import { bump, readRelease, requiredLevel, satisfies, type Level } from './release.js';

export interface GateResult {
  readonly ok: boolean;
  readonly version: string;
  readonly level: Level;
  readonly changes: readonly Change[];
  readonly message: string;
}

export async function checkPackageVersion(specDir: string): Promise<GateResult> {
  const release = await readRelease(specDir);
  if (!release.base)
    return {
      ok: true,
      version: release.version,
      level: 'none',
      changes: [],
      message: `${release.version}: first release, no base to diff against`,
    };
  const checkout = await checkoutSpec(release.base.commit, specDir);
  try {
    const changes = await diffSpecs(
      await loadVersion(checkout.specDir, release.base.commit),
      await loadVersion(specDir),
    );
    const level = requiredLevel(changes);
    const ok = satisfies(release.version, release.base.version, level);
    const need = level === 'none' ? release.base.version : bump(release.base.version, level);
    return {
      ok,
      version: release.version,
      level,
      changes,
      message: ok
        ? `${release.version} satisfies the diff against ${release.base.version} (${release.base.commit}): ${level} change`
        : `package version ${release.version} does not satisfy the diff against ${release.base.version} (${release.base.commit}): ` +
          `${changes.length} change(s) need a ${level} version, at least ${need} (run: npx evgen diff --base ${release.base.commit})`,
    };
  } finally {
    await checkout.dispose();
  }
}
