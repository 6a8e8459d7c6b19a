// The report in three forms: text (one line per change), JSON (for tools), Markdown (a table for
// a pull-request comment).
import { AUDIENCES, worst, type Audience, type Change, type Severity } from './model.js';
import type { Level } from './release.js';

export type Format = 'text' | 'json' | 'markdown';

export interface Summary {
  readonly breaking: number;
  readonly dangerous: number;
  readonly safe: number;
  readonly level: Level;
  /** The package version of the base, when its spec records one. */
  readonly baseVersion: string | null;
  readonly proposedVersion: string | null;
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

export function summarize(
  changes: readonly Change[],
  level: Level,
  baseVersion: string | null,
  proposed: string | null,
): Summary {
  const count = (s: Severity) => changes.filter((c) => worst(c.severities) === s).length;
  return {
    breaking: count('breaking'),
    dangerous: count('dangerous'),
    safe: count('safe'),
    level,
    baseVersion,
    proposedVersion: proposed,
  };
}

function summaryLine(s: Summary): string {
  const total = s.breaking + s.dangerous + s.safe;
  const counts =
    total === 0
      ? 'no changes'
      : `${total} change${total === 1 ? '' : 's'}: ${s.breaking} breaking, ${s.dangerous} dangerous, ${s.safe} safe`;
  const version =
    s.proposedVersion === null
      ? ''
      : s.level === 'none'
        ? `; the package version stays ${s.baseVersion} (${s.proposedVersion} for generator-only changes)`
        : `; next package version ${s.proposedVersion} (${s.level}, from ${s.baseVersion})`;
  return counts + version;
}

export function formatText(changes: readonly Change[], s: Summary): string {
  const lines = changes.map(
    (c) =>
      `${worst(c.severities).toUpperCase().padEnd(9)} ${c.location.file}:${c.location.line}  ${c.message}  [${c.rule}]${perAudience(c)}`,
  );
  return [...lines, summaryLine(s)].join('\n');
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
