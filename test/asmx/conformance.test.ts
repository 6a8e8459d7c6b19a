// `evgen conformance` judges the ASMX service (Mono, Fixed.cs) at level document: every operation
// answers on every binding, discovery finds every value in the service's own data, the signed
// header is refused when wrong, and what fails is exactly .NET's own forms where the document asks
// for others: decimals with the scale C# gave them (12.5m, 1500m, 0m) and dates with a local
// offset, a UTC Z or a fraction. Values the service left out and null results are warnings.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, inject, it } from 'vitest';
import type { ConformanceReport } from '@evgen/runtime';
import { CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { BINDING_IDS } from '@evgen/event-management/service';
import { PROJECT_ROOT } from '../support/ir.js';
import { ASMX_KEY, ASMX_NAMESPACE } from './server.js';

let report: ConformanceReport;
let exitCode: number;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-asmx-report-'));
  try {
    const file = join(dir, 'report.json');
    const args = [
      join(PROJECT_ROOT, 'src/cli/bin.js'),
      'conformance',
      ...['--url', inject('asmxUrl'), '--namespace', ASMX_NAMESPACE],
      ...['--api-key', ASMX_KEY.apiKey, '--secret', ASMX_KEY.secretKey],
      ...['--allow-writes', '--token', 'tok-1', '--report', file],
    ];
    exitCode = await promisify(execFile)('node', args, {
      cwd: PROJECT_ROOT,
      timeout: 240_000,
      maxBuffer: 1 << 24,
    }).then(
      () => 0,
      (e: { code?: number }) => e.code ?? -1,
    );
    report = JSON.parse(await readFile(file, 'utf8')) as ConformanceReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 300_000);

const responses = () => report.results.filter((r) => r.check === 'response');

it('is run at level document, every operation answered on every binding', () => {
  expect(report.level).toBe('document');
  expect(responses()).toHaveLength(CONFORMANCE_MODEL.operations.length * BINDING_IDS.length);
  expect(responses().filter((r) => r.status !== 'pass' && r.status !== 'fail')).toEqual([]);
  expect(report.discovery).toEqual([]);
});

// Operation → the fields that fail, with the value .NET wrote (the same on every binding).
const NET_FORMS: Record<string, readonly string[]> = {
  GetAttendeeTypes: ['GrossPrice "12.5"', 'AvailabilityEndDate "2026-04-30T23:00:00Z"'],
  GetTicketTypesByRoadshowId: ['GrossPrice "12.5"', 'AvailabilityEndDate "2026-04-30T23:00:00Z"'],
  GetBookableSessions: ['EndDateTime "2026-05-01T15:00:00.5"'],
  ...Object.fromEntries(
    ['GetBooking', 'GetBookings', 'GetBookingsBatch'].map((op) => [
      op,
      [
        'CreatedDate "2026-03-01T10:00:00+01:00"',
        'DateCreated "2026-03-01T10:00:00+01:00"',
        'DateCreated "2026-03-01T10:00:00.1234567"',
      ],
    ]),
  ),
  // DefaultTaxRate's "0.2" is judged at level evgen: its scale is a gap decision.
  EventProfileSearch: ['EndDate "2026-05-02T17:00:00Z"'],
  GetShows: [
    'Revenue "1500"',
    ...['TotalStockCost', 'UnsoldRisk', 'Profit', 'FutureProfit', 'CurrentPL'].map(
      (f) => `${f} "0"`,
    ),
    ...['StockCost', 'RemainingValue'].map((f) => `${f} "0"`),
  ],
  GetEventDetails7: ['StartDate "2026-05-01T09:00:00.1234567"'],
  GetContactEventHistory3: ['RegDate "2026-03-01T10:00:00+01:00"'],
};

it("fails exactly .NET's decimal and date forms, on every binding", () => {
  const failed: Record<string, Set<string>> = {};
  for (const r of responses().filter((x) => x.status === 'fail')) {
    for (const f of r.failures) {
      const m =
        /\/(\w+): expected (?:decimal with exactly \d+ decimal places|dateTime yyyy-MM-ddTHH:mm:ss), got (".*")$/.exec(
          f,
        );
      expect(m, f).not.toBeNull();
      (failed[r.group] ??= new Set()).add(`${m![1]} ${m![2]}`);
    }
    expect(r.level).toBe('document');
  }
  expect(Object.fromEntries(Object.entries(failed).map(([k, v]) => [k, [...v].sort()]))).toEqual(
    Object.fromEntries(Object.entries(NET_FORMS).map(([k, v]) => [k, [...v].sort()])),
  );
  for (const op of Object.keys(NET_FORMS))
    expect(responses().filter((r) => r.group === op && r.status === 'fail')).toHaveLength(
      BINDING_IDS.length,
    );
  expect(exitCode).toBe(1);
});

it('refuses wrong, unknown and missing credentials', () => {
  const auth = report.results.filter((r) => r.group === 'Authentication');
  expect(auth.length).toBeGreaterThan(0);
  expect(auth.filter((r) => r.status !== 'pass')).toEqual([]);
});

it('warns of the values the service left out and of null results', () => {
  const warnings = (op: string, binding: string) =>
    report.results.find((r) => r.group === op && r.binding === binding && r.check === 'response')!
      .warnings;
  expect(warnings('GetBookingDetails', 'soap11')).toContain(
    'GetBookingDetailsResult/InvoiceUrl: absent (a value the server does not have)',
  );
  expect(warnings('GetSpeakersforSeries', 'soap12')).toContain(
    'GetSpeakersforSeriesResponse/GetSpeakersforSeriesResult: absent (a null result)',
  );
  expect(warnings('GetSpeakersforSeries', 'httpGet')).toContain(
    'ArrayOfSpeakerSeriesResponse: nil (a null result)',
  );
});
