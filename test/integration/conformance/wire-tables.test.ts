// The conformance checker takes bindings, paths, content types, SOAPAction rules and fault codes
// from the WireSpec it is given, as the engines do: a server on a made-up table, checked against
// that table, passes on each of its bindings (ids, statuses and codes the spec never names), and
// its operation without a handler is reported not implemented through the table's code. (The
// model's refusal codes name the spec's codes: here they are mapped onto the table's.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  listen,
  type ConformanceModel,
  type ConformanceReport,
  type RunningServer,
} from '@evgen/runtime';
import { createServiceHandler, runConformance } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { operations } from '@evgen/event-management/operations';
import { WIRE } from '@evgen/event-management/service';
import { renderWsdl } from '@evgen/event-management/wsdl';
import { MADE_UP_WIRE } from '../../support/made-up-wire.js';
import { KEY } from '../../support/requests.js';
import { bookingDetails, lookupTestKey } from '../../support/stub.js';

const ids = MADE_UP_WIRE.bindings.map((b) => b.id);
/** The spec's codes in the model's checks → the made-up table's code for the same situation. */
const CODES: Readonly<Record<string, string>> = {
  [WIRE.faults.raisedFor.authentication]: MADE_UP_WIRE.faults.raisedFor.authentication,
  [WIRE.faults.raisedFor.request]: MADE_UP_WIRE.faults.raisedFor.request,
};
const model: ConformanceModel = {
  ...CONFORMANCE_MODEL,
  checks: Object.fromEntries(
    Object.entries(CONFORMANCE_MODEL.checks).map(([family, k]) => [
      family,
      { ...k, fault: k.fault === null ? null : (CODES[k.fault] ?? k.fault) },
    ]),
  ) as ConformanceModel['checks'],
};
let server: RunningServer;
let report: ConformanceReport;

beforeAll(async () => {
  server = await listen(
    createServiceHandler({
      operations,
      handlers: { getBookingDetails: bookingDetails },
      partial: true,
      onDiagnostic: () => undefined,
      auth: authScheme,
      wire: MADE_UP_WIRE,
      clockSkewSeconds: 60,
      lookupKey: lookupTestKey,
      wsdl: renderWsdl,
    }),
  );
  report = await runConformance({
    url: server.url,
    apiKey: KEY.apiKey,
    secretKey: KEY.secret,
    model,
    operations,
    auth: authScheme,
    wire: MADE_UP_WIRE,
    level: 'evgen',
    values: { bookingId: '5' },
    only: ['GetBookingDetails', 'GetBooking'],
  });
}, 60_000);
afterAll(() => server.close());

const results = (group: string, binding: string) =>
  report.results.filter((r) => r.group === group && r.binding === binding);

it('checks the table’s bindings and nothing else', () => {
  expect(new Set(report.results.map((r) => r.binding))).toEqual(new Set(['wsdl', ...ids]));
  expect(results('WSDL', 'wsdl').map((r) => [r.status, r.failures])).toEqual([['pass', []]]);
});

describe.each(ids)('binding %s of the made-up table', (id) => {
  it.each(['GetBookingDetails', 'Authentication', 'Errors'])('%s passes', (group) => {
    const found = results(group, id);
    expect(found.length).toBeGreaterThan(0);
    expect(
      found.filter((r) => r.status !== 'pass').map((r) => `${r.check}: ${r.failures.join('; ')}`),
    ).toEqual([]);
  });

  it('reports the operation without a handler as not implemented, by the table’s code', () => {
    const [r] = results('GetBooking', id);
    expect(r?.status).toBe('not-implemented');
    expect(r?.reason).toContain(`[${MADE_UP_WIRE.faults.raisedFor.notImplemented}]`);
  });
});

it('names the table’s bindings as the report’s columns, at each level', () => {
  const headers = formatReport(report)
    .split('\n')
    .filter((l) => l.startsWith('operation'));
  expect(headers.map((h) => h.split(/\s+/))).toEqual([
    ['operation', ...ids],
    ['operation', 'wsdl', ...ids],
  ]);
});
