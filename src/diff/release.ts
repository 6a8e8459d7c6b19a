// The generated package's own version: the first `## x.y.z` heading of spec/CHANGELOG.md, the
// version `evgen generate` writes and the one being written. What was released before it comes
// from git history (history.ts), never from this file's text; the version arithmetic of the gate
// is here.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SpecError } from '../generator/spec/diagnostics.js';
import { worst, type Audience, type Change } from './model.js';
import type { RuleId } from './rules.js';

export const CHANGELOG = 'CHANGELOG.md';

export interface PackageVersion {
  readonly version: string;
  /** Lines of the CHANGELOG that look like a release record but are not read (`Base: …`). */
  readonly ignored: readonly { readonly line: number; readonly text: string }[];
  /** As the loader names it, e.g. `spec/CHANGELOG.md`. */
  readonly file: string;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** The version of the first `## ` heading, if it is one (for old commits: no error, no opinion). */
export function firstHeading(text: string): string | undefined {
  const line = text.split('\n').find((l) => l.startsWith('## '));
  const version = line?.slice(3).trim().split(/\s/)[0];
  return version !== undefined && SEMVER.test(version) ? version : undefined;
}

export async function readPackageVersion(specDir: string): Promise<PackageVersion> {
  const file = `${basename(specDir)}/${CHANGELOG}`;
  const text = await readFile(join(specDir, CHANGELOG), 'utf8').catch(() => {
    throw new SpecError([
      {
        pos: { file, line: 1, col: 1 },
        message: "file is missing: it records the generated package's version",
        hint: 'start it with a heading "## 1.0.0" (see docs/guides/changing-the-spec.md)',
      },
    ]);
  });
  return parsePackageVersion(text, file);
}

export function parsePackageVersion(text: string, file: string): PackageVersion {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('## '));
  const version = firstHeading(text);
  if (version === undefined)
    throw new SpecError([
      {
        pos: { file, line: start + 1 || 1, col: 1 },
        message: 'the first "## " heading must be the package version (x.y.z)',
        hint: start < 0 ? 'add a heading "## 1.0.0"' : undefined,
      },
    ]);
  const ignored = lines
    .map((l, i) => ({ line: i + 1, text: l }))
    .filter((l) => /^Base:/.test(l.text));
  return { version, ignored, file };
}

export type Level = 'major' | 'minor' | 'patch' | 'none';
const LEVELS: readonly Level[] = ['none', 'patch', 'minor', 'major'];

/** Changes to documentation and to the generated conformance suite's own behaviour. */
const PATCH_RULES: readonly RuleId[] = ['DOC_CHANGED', 'CONFORMANCE_CHANGED'];

/** major: breaking for an audience kept; patch: PATCH_RULES only; minor: the rest. */
export function requiredLevel(changes: readonly Change[], kept: readonly Audience[]): Level {
  let level: Level = 'none';
  const raise = (l: Level) => (level = LEVELS.indexOf(l) > LEVELS.indexOf(level) ? l : level);
  for (const c of changes) {
    if (worst(c.severities, kept) === 'breaking') raise('major');
    else if (PATCH_RULES.includes(c.rule)) raise('patch');
    else raise('minor');
  }
  return level;
}

const parts = (v: string) => v.split('.').map(Number) as [number, number, number];

export function bump(version: string, level: Level): string {
  const [ma, mi, pa] = parts(version);
  if (level === 'major') return `${ma + 1}.0.0`;
  if (level === 'minor') return `${ma}.${mi + 1}.0`;
  return `${ma}.${mi}.${pa + 1}`;
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}
