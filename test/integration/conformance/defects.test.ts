// Every conformance check is shown to fail on the defect it names: the runner against a test double
// of the interface (test/support/double: written from the document, no code shared with the
// reference service) switched to one defect at a time, asserting the specific check and message;
// with no defect, the double passes everything it implements. Then the rule the other way round:
// every check the runner reports fails under at least one defect (the runs are shared).
import { afterAll, describe, expect, it } from 'vitest';
import type { ConformanceReport, ConformanceResult } from '@evgen/runtime';
import { CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { ASMX_FORMS, DEFECTS } from '../../support/double/defects.js';
import { CONTACT_EMAIL } from '../../support/double/people.js';
import { BOOKING_ID, OPERATIONS } from '../../support/double/records.js';
import { CASES, closeDoubles, FORM_CASES, reportOf } from './defect-cases.js';
import { checkNames, modelGapChecks } from './coverage.js';

afterAll(closeDoubles);

const find = (r: ConformanceReport, [group, binding, check]: readonly string[]) =>
  r.results.find((x) => x.group === group && x.binding === binding && x.check === check);

describe('each defect fails the check that names it', () => {
  it('has a case for every defect of the double', () => {
    expect([...new Set(CASES.map((c) => c.defect))].sort()).toEqual([...DEFECTS].sort());
  });

  it.each(CASES)(
    '$defect → $want.0 $want.2 [$want.1]',
    async ({ defect, hostile, defaultWait, want, level, failure }) => {
      const report = await reportOf(defect, hostile, { defaultWait });
      const r = find(report, want);
      expect(r, `${want.join(' ')} was not reported`).toBeDefined();
      expect(r!.status, JSON.stringify(r)).toBe('fail');
      expect(r!.level).toBe(level);
      if (typeof failure === 'string') expect(r!.failures).toContain(failure);
      else
        expect(
          r!.failures.some((f) => failure.test(f)),
          r!.failures.join('\n'),
        ).toBe(true);
    },
  );
});

describe("ASMX's forms pass: no defect, though the checker once failed them", () => {
  it('has a case for every form of the double', () => {
    expect([...new Set(FORM_CASES.map((c) => c.form))].sort()).toEqual([...ASMX_FORMS].sort());
  });

  it.each(FORM_CASES)(
    '$form → $want.0 $want.2 [$want.1] passes',
    async ({ form, writes, want, warning }) => {
      const report = await reportOf(form, false, { writes });
      const r = find(report, want);
      expect(r, `${want.join(' ')} was not reported`).toBeDefined();
      expect([r!.status, r!.failures]).toEqual(['pass', []]);
      if (warning) expect(r!.warnings).toContain(warning);
      expect(report.results.filter((x) => x.status === 'fail')).toEqual([]);
    },
  );
});

describe('a transport failure', () => {
  it('fails its own check, and every other check of the run is reported', async () => {
    const clean = await reportOf(undefined, true);
    const broken = await reportOf('no-answer-to-malformed', true);
    const key = (r: ConformanceResult) => `${r.group} ${r.binding} ${r.check}`;
    expect(broken.results.map(key)).toEqual(clean.results.map(key));
    const failed = broken.results.filter((r) => r.status === 'fail');
    expect(new Set(failed.map((r) => r.check))).toEqual(
      new Set(['refuses malformed XML with a fault']),
    );
  }, 60_000);
});

describe('the double without defects', () => {
  let report: ConformanceReport;
  const statuses = (group: string) =>
    report.results.filter((r) => r.group === group).map((r) => r.status);

  it('passes everything it implements, hostile checks included', async () => {
    report = await reportOf(undefined, true);
    expect(report.results.filter((r: ConformanceResult) => r.status === 'fail')).toEqual([]);
    // The writes are skipped: this run does not allow them.
    const writes = CONFORMANCE_MODEL.operations.filter((o) => o.mutating).map((o) => o.name);
    for (const op of Object.keys(OPERATIONS))
      expect(
        statuses(op).every((s) => s === (writes.includes(op) ? 'skip' : 'pass')),
        op,
      ).toBe(true);
  }, 60_000);

  it('reports the operations it does not implement as not implemented, with the reason', () => {
    const ni = report.results.find((r) => r.group === 'GetShows' && r.binding === 'soap11')!;
    expect(ni.status).toBe('not-implemented');
    expect(ni.reason).toBe(
      'HTTP 500, fault soap:Client [InvalidRequest] "GetShows is not implemented by this double"',
    );
  });

  it('skips what needs a value it could not find, naming the option that gives it', () => {
    // roadshowId comes only from GetEventDetails7, which the double does not implement.
    const r = report.results.find(
      (x) => x.group === 'GetTicketTypesByRoadshowId' && x.binding === 'httpGet',
    )!;
    expect(r.status).toBe('skip');
    expect(r.reason).toBe('no value for roadshowId (give --roadshow-id)');
  });

  it('falls back across sources and reports what discovery could not use', () => {
    // GetBookingsBatch is not implemented: the contact comes from GetBookings.
    expect(report.values.contactEmail).toBe(CONTACT_EMAIL);
    expect(report.values.eventId).toBe('501');
    expect(report.discovery).toContainEqual({
      operation: 'GetBookingsBatch',
      binding: 'soap11',
      reason:
        'not implemented: HTTP 500, fault soap:Client [InvalidRequest] "GetBookingsBatch is not implemented by this double"',
    });
  });

  it('uses an id given by the user (GetBookingDetails with bookingId)', () => {
    expect(report.values.bookingId).toBe(String(BOOKING_ID));
    expect(statuses('GetBookingDetails')).toContain('pass');
  });

  it('names the source of every check', () => {
    const doc = report.results.find(
      (r) => r.check === 'refuses a wrong signature' && r.binding === 'soap11',
    )!;
    expect([doc.level, doc.source]).toEqual(['document', 'Authentication']);
    const gap = report.results.find((r) => r.check === 'refuses a stale timestamp (signed)')!;
    expect([gap.level, gap.source]).toEqual(['evgen', 'gap:timestamp-window']);
  });
});

describe('every check the runner reports fails under some defect', () => {
  it('a check name of the defect-free run that no defect makes fail is a bug', async () => {
    const clean = await reportOf(undefined, true);
    const reported = checkNames(clean, (r) => r.status === 'pass');
    const failed = new Set<string>();
    for (const c of CASES)
      for (const name of checkNames(
        await reportOf(c.defect, c.hostile, { defaultWait: c.defaultWait }),
        (r) => r.status === 'fail',
      ))
        failed.add(name);
    expect([...reported].filter((n) => !failed.has(n)).sort()).toEqual([]);
  }, 120_000);

  it('the double answers every gap decision the model can report (no check hides behind it)', async () => {
    const clean = await reportOf(undefined, true);
    const reported = checkNames(clean, (r) => r.status === 'pass');
    expect(modelGapChecks(CONFORMANCE_MODEL).filter((n) => !reported.has(n))).toEqual([]);
  });
});
