// The report in three forms: text (one line per change), JSON (for tools), Markdown (a table for
// a pull-request comment).
import type { GateResult } from './gate.js';
import { AUDIENCES, worst, type Audience, type Change, type Severity } from './model.js';
import type { Level } from './release.js';

export type Format = 'text' | 'json' | 'markdown';

export interface Summary {
  readonly breaking: number;
  readonly dangerous: number;
  readonly safe: number;
  /** What the changes since the release proposed from need (none without a release). */
  readonly level: Level;
  /**
   * The release the version is proposed from, and the commit standing for it: the last release,
   * unless an older one of the same major line needs a higher version (`lastRelease` false).
   */
  readonly baseVersion: string | null;
  readonly baseCommit: string | null;
  readonly lastRelease: boolean;
  /** The least version the spec may carry now: what `evgen diff` proposes, what the gate checks. */
  readonly proposedVersion: string | null;
  /** The version spec/CHANGELOG.md names, and whether it is at least the proposed one. */
  readonly packageVersion: string;
  readonly packageVersionOk: boolean;
}

const SHORT: Record<Audience, string> = {
  'wire-lax': 'lax',
  'wire-strict': 'strict',
  typescript: 'ts',
};

/** The audiences at the change's worst severity. */
export function audiencesAt(c: Change): Audience[] {
  const w = worst(c.severities);
  return AUDIENCES.filter((a) => c.severities[a] === w);
}

function perAudience(c: Change): string {
  const w = worst(c.severities);
  return AUDIENCES.every((a) => c.severities[a] === w)
    ? ''
    : ` (${AUDIENCES.map((a) => `${SHORT[a]} ${c.severities[a]}`).join(', ')})`;
}

export function summarize(changes: readonly Change[], gate: GateResult): Summary {
  const count = (s: Severity) => changes.filter((c) => worst(c.severities) === s).length;
  return {
    breaking: count('breaking'),
    dangerous: count('dangerous'),
    safe: count('safe'),
    level: gate.binding?.level ?? 'none',
    baseVersion: gate.binding?.version ?? null,
    baseCommit: gate.binding?.commit ?? null,
    lastRelease: gate.binding === gate.last,
    proposedVersion: gate.binding ? gate.need : null,
    packageVersion: gate.version,
    packageVersionOk: gate.ok,
  };
}

function summaryLine(s: Summary): string {
  const total = s.breaking + s.dangerous + s.safe;
  const counts =
    total === 0
      ? 'no changes'
      : `${total} change${total === 1 ? '' : 's'}: ${s.breaking} breaking, ${s.dangerous} dangerous, ${s.safe} safe`;
  if (s.proposedVersion === null || s.baseVersion === null)
    return `${counts}; package version ${s.packageVersion} (no earlier release to propose from)`;
  const written = s.packageVersionOk
    ? ''
    : `; spec/CHANGELOG.md says ${s.packageVersion}: too low (npx evgen diff --check-version)`;
  const since = `${s.lastRelease ? 'the last release' : 'the release'} ${s.baseVersion} at ${s.baseCommit}`;
  return s.level === 'none'
    ? `${counts}; no change since ${since}${written}`
    : `${counts}; next package version ${s.proposedVersion} (${s.level}, from ${since})${written}`;
}

/** One change as a line of the text report (and of the gate's refusal). */
export function formatChangeLine(c: Change): string {
  return `${worst(c.severities).toUpperCase().padEnd(9)} ${c.location.file}:${c.location.line}  ${c.message}  [${c.rule}]${perAudience(c)}`;
}

export function formatText(changes: readonly Change[], s: Summary): string {
  return [...changes.map(formatChangeLine), summaryLine(s)].join('\n');
}

export function formatJson(changes: readonly Change[], s: Summary, extra: object = {}): string {
  return JSON.stringify(
    {
      changes: changes.map((c) => ({
        rule: c.rule,
        severity: worst(c.severities),
        audience: audiencesAt(c),
        severities: c.severities,
        path: c.path,
        file: c.location.file,
        line: c.location.line,
        message: c.message,
        operations: c.operations,
      })),
      summary: s,
      ...extra,
    },
    null,
    2,
  );
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatMarkdown(changes: readonly Change[], s: Summary): string {
  const head = [
    '| severity | wire-lax | wire-strict | typescript | where | change | rule |',
    '|---|---|---|---|---|---|---|',
  ];
  const rows = changes.map(
    (c) =>
      `| **${worst(c.severities)}** | ${AUDIENCES.map((a) => c.severities[a]).join(' | ')} | \`${c.location.file}:${c.location.line}\` | ${cell(c.message)} | \`${c.rule}\` |`,
  );
  return ['### evgen diff', '', summaryLine(s), '', ...(rows.length ? [...head, ...rows] : [])]
    .join('\n')
    .trimEnd();
}
