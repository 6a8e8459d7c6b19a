// The generated package's own version and the record of the release it is judged against:
// spec/CHANGELOG.md. Its first `## x.y.z` heading is the version `evgen generate` writes; a line
// `Base: a.b.c at <commit>` in that section names the last released version and the commit whose
// spec/ it was, which `evgen generate` diffs against to refuse a version that understates a change.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SpecError } from '../generator/spec/diagnostics.js';
import type { Change } from './model.js';
import type { RuleId } from './rules.js';

export const CHANGELOG = 'CHANGELOG.md';

export interface Release {
  readonly version: string;
  readonly base: { readonly version: string; readonly commit: string } | null;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export async function readRelease(specDir: string): Promise<Release> {
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
  return parseRelease(text, file);
}

export function parseRelease(text: string, file: string): Release {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('## '));
  const version = start < 0 ? undefined : lines[start]!.slice(3).trim().split(/\s/)[0]!;
  if (version === undefined || !SEMVER.test(version))
    throw new Error(
      `${file}:${start + 1}: the first "## " heading must be the package version (x.y.z)`,
    );
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const baseLine = section.find((l) => l.startsWith('Base:'));
  if (baseLine === undefined) return { version, base: null };
  const m = /^Base: (\S+) at ([0-9a-f]{7,40})\.?\s*$/.exec(baseLine);
  if (!m || !SEMVER.test(m[1]!))
    throw new Error(`${file}: "${baseLine}" should read "Base: x.y.z at <commit>"`);
  return { version, base: { version: m[1]!, commit: m[2]! } };
}

export type Level = 'major' | 'minor' | 'patch' | 'none';
const LEVELS: readonly Level[] = ['none', 'patch', 'minor', 'major'];

/** Changes to documentation and to the generated conformance suite's own behaviour. */
const PATCH_RULES: readonly RuleId[] = ['DOC_CHANGED', 'CONFORMANCE_CHANGED'];

/** major: breaking for typescript or wire-lax clients; patch: PATCH_RULES only; minor: the rest. */
export function requiredLevel(changes: readonly Change[]): Level {
  let level: Level = 'none';
  const raise = (l: Level) => (level = LEVELS.indexOf(l) > LEVELS.indexOf(level) ? l : level);
  for (const c of changes) {
    if (c.severities.typescript === 'breaking' || c.severities['wire-lax'] === 'breaking')
      raise('major');
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

/** Whether `version` may follow `base` after changes needing `level`: at least that bump. */
export function satisfies(version: string, base: string, level: Level): boolean {
  return level === 'none'
    ? compareVersions(version, base) >= 0
    : compareVersions(version, bump(base, level)) >= 0;
}
