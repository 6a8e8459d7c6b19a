// `evgen conformance` with no target starts a reference service, passes every case, prints the
// operation × binding table and writes a report.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import type { ConformanceReport } from '@evgen/runtime';
import { CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { PROJECT_ROOT } from '../../support/ir.js';

it('passes every case against the reference service and prints the table', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-conf-cli-'));
  try {
    const report = join(dir, 'report.json');
    const { stdout } = await promisify(execFile)(
      'node',
      [join(PROJECT_ROOT, 'src/cli/bin.js'), 'conformance', '--report', report],
      { cwd: PROJECT_ROOT, maxBuffer: 1 << 22 },
    );
    expect(stdout).toMatch(/^operation\s+soap11\s+soap12\s+httpGet\s+httpPost$/m);
    expect(stdout).toMatch(/^GetBookingsBatch\s+pass\s+pass\s+pass\s+pass\s*$/m);
    expect(stdout).toMatch(
      /^SubmitSimpleBookingWithBookingStatus\s+pass\s+pass\s+pass\s+pass\s*$/m,
    );
    expect(stdout).toMatch(
      /\n\d+ passed, 0 failed, 0 skipped, 0 not implemented \(level evgen\)$/m,
    );
    const { results, level } = JSON.parse(await readFile(report, 'utf8')) as ConformanceReport;
    expect(level).toBe('evgen');
    expect(results.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(new Set(results.filter((r) => r.check === 'response').map((r) => r.group)).size).toBe(
      CONFORMANCE_MODEL.operations.length,
    );
    // Both levels, the hostile checks (on against our own service) and every check names its source.
    expect(new Set(results.map((r) => r.level))).toEqual(new Set(['document', 'evgen']));
    expect(results.some((r) => r.group === 'Hostile')).toBe(true);
    expect(results.every((r) => r.source.length > 0)).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it('exits 1 and names the difference when the target is wrong', async () => {
  const err = await promisify(execFile)(
    'node',
    [
      join(PROJECT_ROOT, 'src/cli/bin.js'),
      'conformance',
      '--url',
      'http://127.0.0.1:9',
      '--api-key',
      'k',
      '--secret',
      's',
    ],
    { cwd: PROJECT_ROOT },
  ).catch((e: { code: number; stdout: string }) => e);
  expect((err as { code: number }).code).toBe(1);
  // Each check that got no answer fails with why; the report is written all the same.
  expect((err as { stdout: string }).stdout).toMatch(/no answer: bad port \(fetch failed\)/); // fetch refuses port 9
  expect((err as { stdout: string }).stdout).toMatch(/\d+ failed/);
}, 60_000);
