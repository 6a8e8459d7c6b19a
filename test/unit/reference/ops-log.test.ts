// Request ids, trace ids and the log's configuration: which caller ids are kept, which traceparent
// headers give a trace id, what redaction removes, which level a request line gets.
import { describe, expect, it } from 'vitest';
import { WIRE } from '@evgen/event-management/service';
import {
  MAX_REQUEST_ID_LENGTH,
  requestIdOf,
  traceIdOf,
} from '../../../src/reference/ops/request-id.js';
import { REDACTED, createServiceLog, requestLevel } from '../../../src/reference/ops/logger.js';
import { QUOTED_LIMIT, quotedFormsKept } from '../../../src/reference/ops/request-line.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('requestIdOf', () => {
  const kept = ['abc', 'req-1.2_3:4/5+6=7@8', 'x'.repeat(MAX_REQUEST_ID_LENGTH)];
  for (const given of kept)
    it(`keeps ${given.slice(0, 20)}`, () => expect(requestIdOf(given)).toBe(given));
  const replaced = [
    undefined,
    '',
    'x'.repeat(MAX_REQUEST_ID_LENGTH + 1),
    'two words',
    'a,b',
    'quote"d',
    'line\nbreak',
    'é',
  ];
  for (const given of replaced)
    it(`replaces ${JSON.stringify(given)} with a new id`, () => {
      const id = requestIdOf(given);
      expect(id).toMatch(UUID);
      expect(requestIdOf(given)).not.toBe(id);
    });
});

describe('traceIdOf', () => {
  const cases: { given: string | undefined; want: string | undefined }[] = [
    { given: `00-${TRACE}-00f067aa0ba902b7-01`, want: TRACE },
    { given: `01-${TRACE}-00f067aa0ba902b7-01-later`, want: TRACE },
    { given: `00-${TRACE}-00f067aa0ba902b7-01-extra`, want: undefined },
    { given: `ff-${TRACE}-00f067aa0ba902b7-01`, want: undefined },
    { given: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, want: undefined },
    { given: `00-${TRACE}-${'0'.repeat(16)}-01`, want: undefined },
    { given: `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`, want: undefined },
    { given: `00-${TRACE}-00f067aa0ba902b7`, want: undefined },
    { given: undefined, want: undefined },
  ];
  for (const { given, want } of cases)
    it(`${String(given)} -> ${String(want)}`, () => expect(traceIdOf(given)).toBe(want));
});

describe('the service log', () => {
  const logged = (level?: 'info' | 'warn') => {
    const lines: string[] = [];
    const log = createServiceLog({ write: (l) => lines.push(l), ...(level ? { level } : {}) });
    return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
  };

  it('redacts secrets by configuration, at the top and one level down', () => {
    const { log, lines } = logged();
    log.logger.info({
      signature: 'sig',
      SecretKey: 'sec',
      APIKey: 'key',
      adminToken: 'tok',
      headers: { authorization: 'Bearer tok', 'x-admin-token': 'tok2' },
      nested: { secretKey: 'sec2', Signature: 'sig2' },
    });
    expect(lines).toHaveLength(1);
    for (const secret of ['sig', 'sec', 'key', 'tok', 'tok2', 'sec2', 'sig2'])
      expect(lines[0]).not.toMatch(new RegExp(`"${secret}"`));
    expect(lines[0]).toContain(REDACTED);
  });

  it('writes only the named fields of a request line: secrets a record might carry never reach it', () => {
    const { log, lines } = logged();
    // Not fields a request record has: what a careless change to one could add.
    const record = {
      operation: 'GetShows',
      binding: 'soap11',
      status: 500,
      durationMs: 1,
      apiKeyName: 'demo',
      faultCode: 'Internal',
      Signature: 'sig',
      secretKey: 'sec',
      error: { name: 'Error', message: 'boom', APIKey: 'key', password: 'pw' },
    };
    log.request(record);
    expect(lines).toHaveLength(1);
    for (const secret of ['sig', 'sec', 'key', 'pw'])
      expect(lines[0]).not.toMatch(new RegExp(`"${secret}"`));
    expect(lines[0]).toContain('"message":"boom"');
  });

  // A request line reads back as its record: the fields set, in JSON whatever their strings hold.
  const error = { name: 'SqliteError', message: 'database "x" is locked\n\u2028é', code: 'BUSY' };
  it.each([
    {
      given: {
        operation: 'GetShows',
        binding: 'soap11',
        status: 200,
        durationMs: 1.5,
        apiKeyName: 'demo',
        faultCode: undefined,
        requestId: 'r-1',
        traceId: TRACE,
        worker: 3,
      },
      level: 'info',
    },
    {
      given: {
        operation: undefined,
        binding: 'http-get',
        status: 503,
        durationMs: 0.25,
        apiKeyName: 'näme "q"',
        faultCode: 'Unavailable',
        error,
      },
      level: 'warn',
    },
  ])(
    'writes a request answered $given.status at $level with its time and fields',
    ({ given, level }) => {
      const { log, parsed } = logged();
      log.request(given);
      const [{ time, ...line }] = parsed() as [Record<string, unknown>];
      expect(time).toMatch(/^\d{4}-\d\d-\d\dT/);
      const set = Object.entries(given).filter(([, v]) => v !== undefined);
      expect(line).toEqual({ level, ...Object.fromEntries(set) });
    },
  );

  it('keeps at most QUOTED_LIMIT quoted names, and writes every name past it right', () => {
    const { log, parsed } = logged();
    const names = Array.from({ length: QUOTED_LIMIT + 200 }, (_, i) => `key "${i}" é`);
    for (const apiKeyName of [...names, ...names])
      log.request({
        operation: 'GetShows',
        binding: 'soap11',
        status: 200,
        durationMs: 1,
        apiKeyName,
        faultCode: undefined,
      });
    expect(parsed().map((l) => l.apiKeyName)).toEqual([...names, ...names]);
    expect(quotedFormsKept()).toBeLessThanOrEqual(QUOTED_LIMIT);
  });

  it.each([
    { given: { status: 200, faultCode: undefined }, want: 0 },
    { given: { status: 503, faultCode: 'Unavailable' }, want: 1 },
  ])(
    'writes a request line answered $given.status only from its level up (at warn: $want)',
    ({ given, want }) => {
      const { log, lines } = logged('warn');
      const base = { operation: 'GetShows', binding: 'soap11', durationMs: 1, apiKeyName: 'demo' };
      log.request({ ...base, ...given });
      expect(lines).toHaveLength(want);
    },
  );

  it('logs from the level given: info lines are left out at warn', () => {
    const { log, parsed } = logged('warn');
    log.line(JSON.stringify({ time: 'x', event: 'worker started', worker: 1 }));
    log.line(JSON.stringify({ time: 'x', event: 'worker exited', worker: 1, code: 1 }));
    const lines = parsed();
    expect(lines).toHaveLength(1);
    const [{ time, ...line }] = lines as [Record<string, unknown>];
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT/); // pino's, not the line's own
    expect(line).toEqual({ level: 'warn', event: 'worker exited', worker: 1, code: 1 });
  });

  const internal = WIRE.faults.raisedFor.internal;
  const levels = [
    { given: { status: 200, faultCode: undefined }, want: 'info' },
    { given: { status: 404, faultCode: 'NotFound' }, want: 'info' },
    { given: { status: 500, faultCode: 'NotFound' }, want: 'info' }, // SOAP 1.1 answers 500
    { given: { status: 503, faultCode: undefined }, want: 'warn' },
    { given: { status: 503, faultCode: 'Unavailable' }, want: 'warn' },
    { given: { status: 500, faultCode: internal }, want: 'error' },
  ];
  for (const { given, want } of levels)
    it(`a request answered ${given.status} ${given.faultCode ?? ''} is ${want}`, () =>
      expect(requestLevel(given)).toBe(want));
});
