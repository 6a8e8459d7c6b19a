// The report in three forms: text (one line per change), JSON (for tools), Markdown (a table for
// a pull-request comment).
import type { GateResult } from './gate.js';
import {
  AUDIENCES,
  SEVERITIES,
  worst,
  type Audience,
  type Change,
  type Severity,
} from './model.js';
import type { Level } from './release.js';

export type Format = 'text' | 'json' | 'markdown';

export interface Summary {
  /** Changes by their worst severity for the audiences kept. */
  readonly breaking: number;
  readonly dangerous: number;
  readonly safe: number;
  /** The audiences judged by: those either spec keeps (keptAudiences). */
  readonly kept: readonly Audience[];
  /** Per audience, kept or not: how many changes are breaking, dangerous, safe for it. */
  readonly audiences: Readonly<Record<Audience, Readonly<Record<Severity, number>>>>;
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

/** The kept audiences at the change's worst severity for them. */
export function audiencesAt(c: Change, kept: readonly Audience[]): Audience[] {
  const w = worst(c.severities, kept);
  return kept.filter((a) => c.severities[a] === w);
}

/** What the change is for each audience, when they differ; audiences not kept are marked. */
function perAudience(c: Change, kept: readonly Audience[]): string {
  const w = worst(c.severities);
  return AUDIENCES.every((a) => c.severities[a] === w)
    ? ''
    : ` (${AUDIENCES.map((a) => `${a} ${c.severities[a]}${kept.includes(a) ? '' : ': not kept'}`).join(', ')})`;
}

export function summarize(
  changes: readonly Change[],
  gate: GateResult,
  kept: readonly Audience[],
): Summary {
  const count = (s: Severity, of: (c: Change) => Severity) =>
    changes.filter((c) => of(c) === s).length;
  const counts = (of: (c: Change) => Severity) =>
    Object.fromEntries(SEVERITIES.map((s) => [s, count(s, of)])) as Record<Severity, number>;
  const headline = counts((c) => worst(c.severities, kept));
  return {
    ...headline,
    kept,
    audiences: Object.fromEntries(
      AUDIENCES.map((a) => [a, counts((c) => c.severities[a])]),
    ) as Summary['audiences'],
    level: gate.binding?.level ?? 'none',
    baseVersion: gate.binding?.version ?? null,
    baseCommit: gate.binding?.commit ?? null,
    lastRelease: gate.binding === gate.last,
    proposedVersion: gate.binding ? gate.need : null,
    packageVersion: gate.version,
    packageVersionOk: gate.ok,
  };
}

/** `per audience: wire-lax 1 safe; wire-strict (not kept) 1 breaking; …`, zero counts left out. */
function audienceLine(s: Summary): string {
  const one = (a: Audience) => {
    const n = SEVERITIES.filter((x) => s.audiences[a][x] > 0).map(
      (x) => `${s.audiences[a][x]} ${x}`,
    );
    return `${a}${s.kept.includes(a) ? '' : ' (not kept)'} ${n.join(', ')}`;
  };
  return `per audience: ${AUDIENCES.map(one).join('; ')}`;
}

function summaryLine(s: Summary): string {
  const total = s.breaking + s.dangerous + s.safe;
  const keptOnly =
    s.kept.length === AUDIENCES.length ? '' : ` for the audiences kept (${s.kept.join(', ')})`;
  const counts =
    total === 0
      ? 'no changes'
      : `${total} change${total === 1 ? '' : 's'}: ${s.breaking} breaking, ${s.dangerous} dangerous, ${s.safe} safe${keptOnly}`;
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
export function formatChangeLine(c: Change, kept: readonly Audience[]): string {
  return `${worst(c.severities, kept).toUpperCase().padEnd(9)} ${c.location.file}:${c.location.line}  ${c.message}  [${c.rule}]${perAudience(c, kept)}`;
}

export function formatText(changes: readonly Change[], s: Summary): string {
  return [
    ...changes.map((c) => formatChangeLine(c, s.kept)),
    ...(changes.length ? [audienceLine(s)] : []),
    summaryLine(s),
  ].join('\n');
}

export function formatJson(changes: readonly Change[], s: Summary, extra: object = {}): string {
  return JSON.stringify(
    {
      changes: changes.map((c) => ({
        rule: c.rule,
        severity: worst(c.severities, s.kept),
        audience: audiencesAt(c, s.kept),
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
    `| severity | ${AUDIENCES.map((a) => (s.kept.includes(a) ? a : `${a} (not kept)`)).join(' | ')} | where | change | rule |`,
    '|---|---|---|---|---|---|---|',
  ];
  const rows = changes.map(
    (c) =>
      `| **${worst(c.severities, s.kept)}** | ${AUDIENCES.map((a) => c.severities[a]).join(' | ')} | \`${c.location.file}:${c.location.line}\` | ${cell(c.message)} | \`${c.rule}\` |`,
  );
  const summary = [summaryLine(s), ...(rows.length ? ['', audienceLine(s)] : [])];
  return ['### evgen diff', '', ...summary, '', ...(rows.length ? [...head, ...rows] : [])]
    .join('\n')
    .trimEnd();
}
