// The proxy reports what `evgen conformance` reports, from traffic it did not make: the test double
// of the conformance tests switched to each of its defects that show in answers (those whose
// conformance case fails an operation's response check), the generated client's engine calling
// every operation the double implements on every binding through the proxy. The proxy must report
// the case's check and failure (its path and message) for that operation and binding, nothing the
// conformance run does not also report, and nothing about the client's requests. Then defects
// that show in refusals, with a client holding the wrong secret. Without a defect, nothing at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverConformanceValues, CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import type { Defect } from '../../support/double/defects.js';
import { DEFECTS } from '../../support/double/defects.js';
import { BOOKING_ID, OPERATIONS } from '../../support/double/records.js';
import { DOUBLE_KEY, startDouble } from '../../support/double/server.js';
import { CASES, closeDoubles, reportOf, type Case } from '../conformance/defect-cases.js';
import type { Finding } from '../../../src/proxy/finding.js';
import {
  callAll,
  handMade,
  paramsOf,
  send,
  sendMade,
  signed,
  watch,
  type Given,
  type Params,
  type Sender,
} from './harness.js';
import { GENERATED_TABLES } from '../../../src/proxy/generated-tables.js';
import { type Level } from '@evgen/runtime';
import {
  AnswerChecker,
  REFUSALS,
  namespaceFor,
  type RefusalDef,
  type RefusalKind,
} from '@evgen/runtime/internal';

afterAll(closeDoubles);

const isOperation = (group: string) => CONFORMANCE_MODEL.operations.some((op) => op.name === group);
/** The double's defects that show in an operation's answer, from the conformance cases. */
const RESPONSE_CASES = CASES.filter((c) => isOperation(c.want[0]));
const implemented = Object.keys(OPERATIONS);
const secrets = (k: string) =>
  Promise.resolve(k === DOUBLE_KEY.apiKey ? DOUBLE_KEY.secretKey : undefined);
const wrongSecret = { ...DOUBLE_KEY, secretKey: `not-${DOUBLE_KEY.secretKey}` };
/** Ports differ between runs: the double's, the proxy's. */
const anyPort = (s: string) => s.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');

let values: Params;
beforeAll(async () => {
  const d = await startDouble();
  values = await discoverConformanceValues({
    url: d.url,
    ...DOUBLE_KEY,
    values: { bookingId: String(BOOKING_ID) },
  });
  await d.close();
});

/** The findings of the proxy (level evgen unless told, secret known) over the double switched to `defect`. */
async function through(
  defect: Defect | undefined,
  traffic: (proxyUrl: string) => Promise<unknown>,
  level: Level = 'evgen',
): Promise<Finding[]> {
  const d = await startDouble(defect);
  const w = await watch(d.url, { level, secrets });
  try {
    await traffic(w.proxy.url);
  } finally {
    await w.proxy.close();
    await d.close();
  }
  return w.findings;
}

const matches = (message: string, failure: Case['failure']) =>
  typeof failure === 'string' ? message === failure : failure.test(message);

describe('each defect in answers is reported as evgen conformance reports it', () => {
  it('takes its cases from the double: every defect with an operation check', () => {
    expect(RESPONSE_CASES.length).toBeGreaterThan(0);
    for (const c of RESPONSE_CASES) expect(DEFECTS).toContain(c.defect);
    expect(
      CASES.filter((c) => !RESPONSE_CASES.includes(c)).every((c) => !isOperation(c.want[0])),
    ).toBe(true);
  });

  it.each(RESPONSE_CASES)(
    '$defect → $want.0 $want.2 [$want.1]',
    async ({ defect, want, level, failure }) => {
      const [operation, binding, check] = want;
      const findings = await through(defect, (url) =>
        callAll(url, DOUBLE_KEY, implemented, values),
      );
      expect(findings.filter((f) => f.direction === 'request')).toEqual([]);
      const here = findings.filter(
        (f) => f.operation === operation && f.binding === binding && f.check === check,
      );
      const hit = here.find((f) => matches(f.message, failure));
      expect(hit, `${want.join(' ')}: ${JSON.stringify(here, null, 1)}`).toBeDefined();
      expect(hit!.level).toBe(level);
      expect(hit!.message.startsWith(hit!.path)).toBe(true);
      // Nothing conformance does not also report for that operation, binding and check.
      const report = await reportOf(defect);
      for (const f of findings) {
        const r = report.results.find(
          (x) => x.group === f.operation && x.binding === f.binding && x.check === f.check,
        );
        expect(r?.failures.map(anyPort), JSON.stringify(f)).toContain(anyPort(f.message));
        expect([r?.level, r?.source]).toEqual([f.level, f.source]);
      }
    },
  );
});

describe('at level document, the defects against our decisions are not reported', () => {
  const evgenOnly = RESPONSE_CASES.filter((c) => c.level === 'evgen');
  it.each(evgenOnly)('$defect → nothing about $want.2', async ({ defect, want }) => {
    const findings = await through(
      defect,
      (url) => callAll(url, DOUBLE_KEY, implemented, values),
      'document',
    );
    expect(findings.filter((f) => f.check === want[2])).toEqual([]);
    expect(findings.every((f) => f.level === 'document')).toBe(true);
  });
});

/** A client with the wrong secret: every call refused (by a faithful double). */
const refusedTraffic = (url: string) => callAll(url, wrongSecret, implemented, values);

describe('defects in refusals, with a client holding the wrong secret', () => {
  const cases: {
    defect: Defect;
    check: string;
    /** The failure as conformance words it, without the name of the refusal it provoked. */
    failure: RegExp;
  }[] = [
    {
      defect: 'bad-signature-accepted',
      check: 'refuses a wrong signature',
      failure: /^accepted: HTTP 200$/,
    },
    {
      defect: 'no-error-code',
      check: 'faults carry their code and status',
      failure: /^ErrorCode missing, expected AuthenticationFailed$/,
    },
    {
      defect: 'stack-trace',
      check: 'fault texts hold no stack trace or file path',
      failure: /^a JavaScript stack frame in a fault: ".*at XmlReader\.parse \(xml\.js:42:7\)/,
    },
  ];

  it.each(cases)('$defect → $check', async ({ defect, check, failure }) => {
    const findings = await through(defect, refusedTraffic);
    const conformance = (await reportOf(defect, true)).results.filter(
      (r) => r.check === check && r.status === 'fail',
    );
    expect(conformance.length, `conformance reports ${check}`).toBeGreaterThan(0);
    const hit = findings.filter((f) => f.direction === 'response' && f.check === check);
    expect(
      hit.map((f) => f.message).some((m) => failure.test(m)),
      JSON.stringify(hit),
    ).toBe(true);
    // On the binding the conformance case names, the proxy finds it too.
    const named = CASES.find((c) => c.defect === defect)!.want[1];
    expect(hit.map((f) => f.binding)).toContain(named);
    // Each request is also reported for its signature, explained.
    expect(findings.some((f) => f.direction === 'request' && f.check === 'signature')).toBe(true);
  });

  it('wsdl-missing-operation → ?wsdl describes every operation, fetched through the proxy', async () => {
    const findings = await through('wsdl-missing-operation', (url) =>
      send(`${url}${WIRE.endpointPath}?wsdl`),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        direction: 'response',
        binding: 'wsdl',
        check: '?wsdl describes every operation',
        message: 'the WSDL has no operation CancelAttendee',
      }),
    );
  });
});

/**
 * Requests a faithful server refuses, each sent to the double switched to accept it (or to the
 * double as it is, where it holds no such rule): the proxy fails the check that names the refusal,
 * in the runner's words.
 */
describe('a refusal the server does not make fails the check that names it', () => {
  let last = Date.now();
  const stamp = (offsetMs = 0) =>
    new Date((last = Math.max(last + 1, Date.now())) + offsetMs).toISOString();
  const hour = 3_600_000;
  const secret = DOUBLE_KEY.secretKey;
  const accepted = 'accepted: HTTP 200';
  const renamed = (to: string) => (r: { headers: Record<string, string>; body: string }) => {
    r.body = r.body.replace(/GetBookingDetails(?=[\s>])/g, to);
    r.headers.soapaction = r.headers.soapaction!.replace('GetBookingDetails', to);
  };
  const cases: {
    name: string;
    /** The double's defect; none: the double as it is, which holds no such rule. */
    defect?: Defect;
    kind: RefusalKind;
    given: Given;
    /** Sent twice, the second time as it was. */
    twice?: true;
    /** The failure (default: accepted with 200). */
    failure?: string;
  }[] = [
    {
      name: 'bad-signature-accepted',
      defect: 'bad-signature-accepted',
      kind: 'wrongSignature',
      given: { auth: (v) => signed({ secret: `not-${secret}` })(v) },
    },
    {
      name: 'no-timestamp-window',
      defect: 'no-timestamp-window',
      kind: 'staleTimestamp',
      given: { auth: (v) => signed({ secret, timestamp: stamp(-hour) })(v) },
    },
    {
      name: 'future-timestamp-accepted',
      defect: 'future-timestamp-accepted',
      kind: 'futureTimestamp',
      given: { auth: (v) => signed({ secret, timestamp: stamp(hour) })(v) },
    },
    {
      name: 'lenient-timestamp',
      defect: 'lenient-timestamp',
      kind: 'malformedTimestamp',
      given: { auth: (v) => signed({ secret, timestamp: stamp().replace('T', ' ') })(v) },
    },
    {
      name: 'operation-header-ignored',
      defect: 'operation-header-ignored',
      kind: 'operationHeader',
      given: { auth: (v) => signed({ secret, operation: 'GetBooking' })(v) },
    },
    {
      name: 'no-credentials-accepted',
      defect: 'no-credentials-accepted',
      kind: 'noCredentials',
      given: {
        change: (r) => (r.body = r.body.replace(/<soap:Header>[\s\S]*<\/soap:Header>/, '')),
      },
    },
    {
      name: 'soapaction-ignored',
      defect: 'soapaction-ignored',
      kind: 'soapAction',
      given: {
        change: (r) =>
          (r.headers.soapaction = r.headers.soapaction!.replace('GetBookingDetails', 'GetBooking')),
      },
    },
    {
      name: 'no-replay-refusal',
      defect: 'no-replay-refusal',
      kind: 'replay',
      given: {},
      twice: true,
    },
    {
      name: 'unknown-operation-accepted',
      defect: 'unknown-operation-accepted',
      kind: 'unknownOperation',
      given: {
        auth: (v) => signed({ secret, operation: 'NoSuchOperation' })(v),
        change: renamed('NoSuchOperation'),
      },
    },
    {
      name: 'malformed-server-fault',
      defect: 'malformed-server-fault',
      kind: 'malformed',
      given: { change: (r) => (r.body = '<soap:Envelope') },
      failure:
        'not refused as the client\'s error: HTTP 500, fault soap:Server [Internal] "Internal error"',
    },
    {
      name: 'the double takes credentials in the query (HTTP GET)',
      kind: 'credentialsInQuery',
      given: { binding: 'httpGet', change: (r) => (r.url += `&APIKey=${DOUBLE_KEY.apiKey}`) },
    },
    {
      name: 'the double takes a charset other than UTF-8',
      kind: 'badRequest',
      given: {
        change: (r) => (r.headers['content-type'] = 'text/xml; charset=iso-8859-1'),
      },
    },
    {
      name: 'the double takes an int parameter written 9001.0',
      kind: 'invalidParameter',
      given: {
        binding: 'httpGet',
        change: (r) =>
          (r.url = r.url.replace(`bookingId=${BOOKING_ID}`, `bookingId=${BOOKING_ID}.0`)),
      },
    },
  ];

  it('names each refusal the runner provokes as its reports name that check, at its level', async () => {
    const report = await reportOf(undefined, true);
    const checker = new AnswerChecker({ ...GENERATED_TABLES, level: 'evgen' });
    const provoked = new Set(report.results.map((r) => r.check));
    const seenOnly = ['badRequest', 'credentialsInQuery', 'invalidParameter'];
    for (const [kind, def] of Object.entries(REFUSALS) as [RefusalKind, RefusalDef][]) {
      if (seenOnly.includes(kind)) {
        expect(provoked, kind).not.toContain(def.check);
        continue;
      }
      const rows = report.results.filter((r) => r.check === def.check);
      expect(rows.length, def.check).toBeGreaterThan(0);
      for (const r of rows)
        expect([r.level, r.source], `${def.check} ${r.binding}`).toEqual(
          Object.values(checker.source(checker.refusalFamily(kind, r.binding))),
        );
    }
    // Each is tried below, but the unknown API key: the proxy cannot tell a key the server lacks.
    expect(new Set(cases.map((c) => c.kind))).toEqual(
      new Set(Object.keys(REFUSALS).filter((k) => k !== 'unknownKey')),
    );
  });

  it.each(cases)('$name → $kind', async ({ defect, kind, given, twice, failure }) => {
    const findings = await through(defect, async (url) => {
      const s: Sender = {
        base: url,
        key: DOUBLE_KEY,
        ns: namespaceFor(url, SERVICE.namespace),
        operation: 'GetBookingDetails',
        params: { bookingId: BOOKING_ID },
        stamp,
      };
      const made = await handMade(s, given);
      const answers = [await sendMade(made), ...(twice ? [await sendMade(made)] : [])];
      if (failure === undefined) expect(answers.map((a) => a.status)).toContain(200);
    });
    const { check } = REFUSALS[kind];
    const hits = findings.filter((f) => f.direction === 'response' && f.check === check);
    expect(
      hits.map((f) => f.message),
      JSON.stringify(findings, null, 1),
    ).toEqual([failure ?? accepted]);
    expect(hits[0]!.expected).toMatch(
      /^a refusal \((AuthenticationFailed|InvalidRequest|InvalidParameter)\)$/,
    );
  });
});

describe('the double without defects', () => {
  it('gives no finding for any call on any binding, not implemented ones included', async () => {
    const names = CONFORMANCE_MODEL.operations.map((op) => op.name);
    const findings = await through(undefined, async (url) => {
      await callAll(url, DOUBLE_KEY, names, values);
      await send(`${url}${WIRE.endpointPath}?wsdl`);
    });
    expect(findings).toEqual([]);
  });

  it('changes no byte of its answers: the same as the double gives directly', async () => {
    const d = await startDouble();
    const w = await watch(d.url);
    let last = Date.now();
    const stamp = () => new Date((last = Math.max(last + 1, Date.now()))).toISOString();
    const host = new URL(w.proxy.url).host;
    try {
      let compared = 0;
      // Those the values found let us call (discovery from the double finds no value for some).
      const callable = implemented.filter((op) => paramsOf(op, values) !== undefined);
      expect(callable.length).toBeGreaterThan(0);
      for (const operation of callable) {
        const params = paramsOf(operation, values)!;
        for (const binding of WIRE.bindings.map((b) => b.id)) {
          const at = (base: string): Sender => ({
            base,
            key: DOUBLE_KEY,
            ns: namespaceFor(w.proxy.url, SERVICE.namespace),
            operation,
            params,
            stamp,
          });
          const direct = await handMade(at(d.url), { binding });
          const a = await sendMade({ ...direct, headers: { ...direct.headers, host } });
          const b = await sendMade(await handMade(at(w.proxy.url), { binding }));
          expect([b.status, b.type], `${operation} ${binding}`).toEqual([a.status, a.type]);
          expect(Buffer.compare(b.body, a.body), `${operation} ${binding}`).toBe(0);
          compared++;
        }
      }
      expect(compared).toBe(callable.length * WIRE.bindings.length);
    } finally {
      await w.proxy.close();
      await d.close();
    }
  });
});
