// The version gate of `evgen generate` and `evgen diff --check-version`, and the base `evgen diff`
// proposes the next version from: one notion of the last release, read from git history
// (history.ts), so nothing written in spec/CHANGELOG.md can lower the bar. The version being
// written must satisfy the diff against every release of its major version line (semver: 1.3.0
// promises what 1.0.0 did), so a breaking change slipped into an earlier commit is still counted;
// it must also be newer than every release (a checkout of a release tag, unchanged, is that
// release). Each diff judges by the audiences the release kept as well as those the working spec
// keeps, so dropping one lowers no bar before the next major version. A release whose spec this
// evgen cannot read (a spec format change since) is skipped with a warning; the others still hold.
import { diffSpecs } from './diff.js';
import { formatChangeLine } from './format.js';
import { releaseHistory, releaseTag, type ReleasedVersion } from './history.js';
import { checkoutSpec, loadVersion, type SpecVersion } from './input.js';
import { keptAudiences, type Audience, type Change } from './model.js';
import { SpecError } from '../generator/spec/diagnostics.js';
import {
  bump,
  CHANGELOG,
  compareVersions,
  readPackageVersion,
  requiredLevel,
  type Level,
} from './release.js';

/** One release the working spec was compared with. */
export interface ReleaseDiff {
  readonly version: string;
  /** The commit whose spec stands for the release (its newest readable one). */
  readonly commit: string;
  readonly changes: readonly Change[];
  /** The audiences judged by: the release's and the working spec's (keptAudiences). */
  readonly kept: readonly Audience[];
  readonly level: Level;
  /** The least version those changes allow after this release. */
  readonly need: string;
}

export interface GateResult {
  readonly ok: boolean;
  /** The version being written (the first heading of spec/CHANGELOG.md). */
  readonly version: string;
  /** The last release: what `evgen diff` compares with by default. Null without one. */
  readonly last: ReleaseDiff | null;
  /** The release whose diff needs the highest version (the last one, unless an older one needs more). */
  readonly binding: ReleaseDiff | null;
  /** The least version the working spec may carry. */
  readonly need: string;
  /** Releases not checked, a shallow history, ignored `Base:` lines. */
  readonly warnings: readonly string[];
  readonly message: string;
}

const newer = (a: string, b: string) => (compareVersions(a, b) >= 0 ? a : b);
const major = (v: string) => v.split('.')[0];

/** The newest commit of `release` whose spec loads, compared with `head`; null when none does. */
async function diffRelease(
  release: ReleasedVersion,
  specDir: string,
  head: SpecVersion,
): Promise<ReleaseDiff | null> {
  for (const commit of release.commits) {
    const checkout = await checkoutSpec(commit, specDir);
    try {
      const base = await loadVersion(checkout, commit).catch((e: unknown) => {
        if (e instanceof SpecError) return null;
        throw e;
      });
      if (!base) continue;
      const changes = await diffSpecs(base, head);
      const kept = keptAudiences(base, head);
      const level = requiredLevel(changes, kept);
      const need = level === 'none' ? release.version : bump(release.version, level);
      return { version: release.version, commit, changes, kept, level, need };
    } finally {
      await checkout.dispose();
    }
  }
  return null;
}

export async function checkPackageVersion(
  specDir: string,
  head?: SpecVersion,
): Promise<GateResult> {
  const working = await readPackageVersion(specDir);
  const version = working.version;
  const warnings = working.ignored.map(
    (l) =>
      `${working.file}:${l.line}: "${l.text.trim()}" is not read: the last release comes from git history`,
  );
  const history = await releaseHistory(specDir);
  const pass = (message: string): GateResult => ({
    ok: true,
    version,
    last: null,
    binding: null,
    need: version,
    warnings,
    message,
  });
  if (!history)
    return pass(
      `package version ${version}: ${specDir} is not in a git repository, so no release is known to check it against`,
    );
  warnings.push(...history.warnings);
  if (history.shallow)
    warnings.push(
      'the git history is shallow: releases older than it are not checked (git fetch --unshallow)',
    );
  const releases = history.releases;
  if (releases.length === 0)
    return pass(`package version ${version}: no earlier release in the history of ${CHANGELOG}`);
  // Releases of older major lines promise nothing this version must keep; newer ones are all wrong.
  const relevant = releases.filter(
    (r, i) =>
      i === 0 || major(r.version) === major(version) || compareVersions(r.version, version) > 0,
  );
  const headVersion = head ?? (await loadVersion(specDir));
  const diffs: ReleaseDiff[] = [];
  for (const r of relevant) {
    const d = await diffRelease(r, specDir, headVersion);
    if (d) diffs.push(d);
    else
      warnings.push(
        `no commit of release ${r.version} (${r.commits.join(', ')}) has a spec this evgen can read: the version is not checked against it`,
      );
  }
  const newest = releases[0]!.version;
  const last = diffs.find((d) => d.version === newest) ?? null;
  // Never back, never the same as a release: at least a patch above the newest, unless the spec
  // is that tagged release itself (a checkout of its tag).
  const isNewest = releases[0]!.tagged && version === newest && last?.level === 'none';
  let need = compareVersions(version, newest) > 0 || isNewest ? '0.0.0' : bump(newest, 'patch');
  for (const d of diffs) need = newer(need, d.need);
  const binding = diffs.reduce<ReleaseDiff | null>(
    (b, d) => (b === null || compareVersions(d.need, b.need) > 0 ? d : b),
    null,
  );
  const ok = compareVersions(version, need) >= 0;
  return {
    ok,
    version,
    last,
    binding,
    need,
    warnings,
    message: ok
      ? accepted(version, last)
      : refused(version, need, releases[0]!, binding, working.file),
  };
}

function accepted(version: string, last: ReleaseDiff | null): string {
  if (!last)
    return `package version ${version}: no release this evgen can read to check it against`;
  const what =
    last.level === 'none'
      ? 'no change'
      : `${last.changes.length} change(s) needing a ${last.level} version`;
  return `package version ${version} satisfies the diff against the last release, ${last.version} (${last.commit}): ${what}`;
}

function refused(
  version: string,
  need: string,
  newestRelease: ReleasedVersion,
  binding: ReleaseDiff | null,
  file: string,
): string {
  const lines: string[] = [];
  const newest = newestRelease.version;
  const shows = newestRelease.tagged ? `its tag ${releaseTag(newest)} shows` : 'git history shows';
  if (compareVersions(version, newest) <= 0)
    lines.push(
      `package version ${version} is not newer than ${newest}, which ${shows} released: a version is never written twice or lowered`,
    );
  if (binding && compareVersions(binding.need, version) > 0) {
    const which = binding.version === newest ? 'the last release' : 'the release';
    lines.push(
      `package version ${version} understates the diff against ${which}, ${binding.version} (${binding.commit}): ${binding.changes.length} change(s) need a ${binding.level} version, at least ${binding.need}:`,
      ...binding.changes.map((c) => `  ${formatChangeLine(c, binding.kept)}`),
      `(npx evgen diff --base ${binding.commit} shows them)`,
    );
  }
  lines.push(
    `write "## ${need}" as the first heading of ${file}, in place of "## ${version}", with a line per change under it`,
  );
  return lines.join('\n');
}
