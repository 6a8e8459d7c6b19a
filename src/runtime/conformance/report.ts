// The report for people: per level, a table of every operation (or group) × binding, then every
// check that did not pass with all its failures or its reason, the discovery notes, and a summary
// line counting passed, failed, skipped and not implemented checks.
import { LEVELS } from './model.js';
import type { ConformanceReport } from './runner.js';
import type { CheckStatus, ConformanceResult } from './results.js';

const MARK: Record<CheckStatus, string> = {
  pass: 'pass',
  fail: 'FAIL',
  skip: 'skip',
  'not-implemented': 'n/i',
};

/** The worst status of a cell: fail, then not implemented, skip, pass. */
function cell(rs: readonly ConformanceResult[]): string {
  if (!rs.length) return '';
  for (const s of ['fail', 'not-implemented', 'skip', 'pass'] as const)
    if (rs.some((r) => r.status === s)) return MARK[s];
  return '';
}

export function summarize(results: readonly ConformanceResult[]): Record<CheckStatus, number> {
  const n = { pass: 0, fail: 0, skip: 0, 'not-implemented': 0 };
  for (const r of results) n[r.status]++;
  return n;
}

function table(results: readonly ConformanceResult[], bindings: readonly string[]): string[] {
  const used = ['wsdl', ...bindings].filter((b) => results.some((r) => r.binding === b));
  const groups = [...new Set(results.map((r) => r.group))];
  const width = Math.max(9, ...groups.map((g) => g.length));
  const lines = [
    `${'operation'.padEnd(width)}  ${used.map((b) => b.padEnd(8)).join(' ')}`.trimEnd(),
  ];
  for (const g of groups) {
    const rs = results.filter((r) => r.group === g);
    lines.push(
      `${g.padEnd(width)}  ${used.map((b) => cell(rs.filter((r) => r.binding === b)).padEnd(8)).join(' ')}`.trimEnd(),
    );
  }
  return lines;
}

const line = (r: ConformanceResult) => `${r.group} [${r.binding}] ${r.check} (${r.source})`;

function details(results: readonly ConformanceResult[]): string[] {
  const out: string[] = [];
  for (const r of results.filter((x) => x.status === 'fail')) {
    out.push(`FAIL ${line(r)}`);
    for (const f of r.failures) out.push(`    ${f}`);
  }
  for (const r of results.filter((x) => x.status === 'not-implemented' || x.status === 'skip'))
    out.push(`${MARK[r.status]} ${line(r)}: ${r.reason ?? ''}`);
  return out;
}

export function formatReport(report: ConformanceReport): string {
  const out: string[] = [];
  for (const level of LEVELS) {
    const rs = report.results.filter((r) => r.level === level);
    if (!rs.length) continue;
    const n = summarize(rs);
    out.push(
      `== level ${level}: ${level === 'document' ? 'what the interface document says' : 'our decisions where the document is silent (spec/gaps.yaml)'}`,
      '',
      ...table(rs, report.bindings),
      '',
      ...details(rs),
      ...(details(rs).length ? [''] : []),
      `${level}: ${n.pass} passed, ${n.fail} failed, ${n.skip} skipped, ${n['not-implemented']} not implemented`,
      '',
    );
  }
  if (report.discovery.length) {
    out.push('Discovery (values for calling operations):');
    for (const d of report.discovery)
      out.push(`  ${d.operation}${d.binding ? ` [${d.binding}]` : ''}: ${d.reason}`);
    out.push('');
  }
  const n = summarize(report.results);
  out.push(
    `${n.pass} passed, ${n.fail} failed, ${n.skip} skipped, ${n['not-implemented']} not implemented (level ${report.level})`,
  );
  return out.join('\n');
}

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatMarkdown(report: ConformanceReport): string {
  const out = [`# Conformance report (level ${report.level})`, ''];
  for (const level of LEVELS) {
    const rs = report.results.filter((r) => r.level === level);
    if (!rs.length) continue;
    const n = summarize(rs);
    out.push(
      `## Level ${level}`,
      '',
      `${n.pass} passed, ${n.fail} failed, ${n.skip} skipped, ${n['not-implemented']} not implemented.`,
      '',
      '| operation | binding | check | source | status | failures or reason |',
      '|---|---|---|---|---|---|',
      ...rs.map(
        (r) =>
          `| ${r.group} | ${r.binding} | ${md(r.check)} | ${md(r.source)} | ${r.status} | ${md(r.status === 'fail' ? r.failures.join('; ') : (r.reason ?? ''))} |`,
      ),
      '',
    );
  }
  if (report.discovery.length)
    out.push(
      '## Discovery',
      '',
      '| operation | binding | reason |',
      '|---|---|---|',
      ...report.discovery.map((d) => `| ${d.operation} | ${d.binding ?? ''} | ${md(d.reason)} |`),
      '',
    );
  return out.join('\n');
}
