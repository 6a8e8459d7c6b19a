// What the proxy holds is bounded: body copies by a per-body bound and a shared budget (given
// back when released), Timestamps remembered for replays by the window and a count, each as a
// digest; and what a client sends cannot make a finding, a reason, a listed key or a cached key
// large.
import { describe, expect, it } from 'vitest';
import { Budget, Capture } from '../../../src/proxy/capture.js';
import { ProxyLog } from '../../../src/proxy/report.js';
import { TimestampMemory, tripleKey } from '../../../src/proxy/timestamps.js';
import { MAX_FINDING_TEXT, clipped, type Finding } from '../../../src/proxy/finding.js';
import { MAX_KEY_LENGTH, databaseLookup } from '../../../src/proxy/keys-db.js';
import type { ReferenceDatabase } from '../../../src/reference/database.js';

describe('Capture', () => {
  it('keeps a body within its bound and the budget, and gives the budget back', () => {
    const budget = new Budget(100);
    const c = new Capture(50, budget);
    c.add(Buffer.from('abc'));
    c.add(Buffer.from('def'));
    expect(Buffer.from(c.bytes()!).toString()).toBe('abcdef');
    expect(budget.free).toBe(94);
    c.release();
    expect(budget.free).toBe(100);
  });

  it('drops a body past its bound, counting every byte that went through', () => {
    const budget = new Budget(100);
    const c = new Capture(5, budget);
    c.add(Buffer.from('abc'));
    c.add(Buffer.from('def'));
    c.add(Buffer.from('ghi'));
    expect([c.bytes(), c.dropped, c.total, budget.free]).toEqual([
      undefined,
      'over the check bound',
      9,
      100,
    ]);
  });

  it('drops a body the budget cannot hold while others hold it', () => {
    const budget = new Budget(10);
    const a = new Capture(10, budget);
    const b = new Capture(10, budget);
    a.add(Buffer.alloc(8));
    b.add(Buffer.alloc(4));
    expect([a.dropped, b.dropped]).toEqual([undefined, 'over the memory budget']);
    a.release();
    expect(budget.free).toBe(10);
  });
});

describe('TimestampMemory', () => {
  const v = (Timestamp: string, Operation = 'Op') => ({ APIKey: 'k', Operation, Timestamp });

  it('tells a triple sent again, not one that differs in any part', () => {
    const m = new TimestampMemory(300_000);
    expect(m.repeated(v('t1'), 0)).toBe(false);
    expect(m.repeated(v('t1'), 1)).toBe(true);
    expect(m.repeated(v('t1', 'Other'), 2)).toBe(false);
    expect(m.repeated({ ...v('t1'), APIKey: 'j' }, 3)).toBe(false);
  });

  it('holds no more than its count, and forgets what is past twice the window', () => {
    const m = new TimestampMemory(1_000, 3);
    for (let i = 0; i < 10; i++) m.repeated(v(`t${i}`), i);
    expect(m.size).toBe(3);
    m.repeated(v('late'), 10_000);
    expect(m.size).toBe(1);
  });
});

describe('ProxyLog', () => {
  const finding = (message: string): Finding => ({
    direction: 'response',
    binding: 'soap11',
    operation: 'Op',
    check: 'response',
    level: 'document',
    source: 's',
    path: '',
    expected: '',
    found: message,
    message,
  });

  it('shows a finding once, counts its repeats, and past its bound counts new ones only', () => {
    const log = new ProxyLog(2);
    expect(['a', 'b', 'a', 'c', 'c'].map((m) => log.finding(finding(m), 't'))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    const r = log.report({ target: 't', listening: 'l', level: 'document', recording: null });
    expect(r.distinct.map((f) => [f.message, f.count])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
    expect([r.findings, r.distinctNotKept]).toEqual([5, 2]);
  });
});

describe('what a client can make the report and the memories hold', () => {
  const huge = 'x'.repeat(1_000_000);

  it('clips every text of a finding, saying how long it was', () => {
    const f = clipped({
      direction: 'request',
      binding: 'soap11',
      operation: huge,
      check: 'parameters',
      level: 'document',
      source: 's',
      path: `Op/${huge}`,
      expected: 'int',
      found: JSON.stringify(huge),
      message: `Op/${huge}: expected int, got ${JSON.stringify(huge)}`,
    });
    for (const text of [f.operation, f.path, f.found, f.message])
      expect(text.length).toBeLessThanOrEqual(MAX_FINDING_TEXT + 40);
    expect(f.found).toMatch(/… \(1000002 characters\)$/);
    expect(f.expected).toBe('int');
  });

  it('keeps a Timestamp triple as a digest of fixed size', () => {
    const short = tripleKey({ APIKey: 'k', Operation: 'Op', Timestamp: 't' });
    const long = tripleKey({ APIKey: huge, Operation: huge, Timestamp: 't' });
    expect([short.length, long.length]).toEqual([44, 44]);
    expect(short).not.toBe(long);
    const m = new TimestampMemory(1_000);
    expect(m.repeated({ APIKey: huge, Operation: 'Op', Timestamp: 't' }, 0)).toBe(false);
    expect(m.repeated({ APIKey: huge, Operation: 'Op', Timestamp: 't' }, 1)).toBe(true);
  });

  it('keeps a few reasons for not checking, short, and counts the rest as one', () => {
    const log = new ProxyLog();
    for (let i = 0; i < 200; i++) log.unchecked(`reason ${i} ${huge}`);
    log.unchecked('reason 0 again');
    const r = log.report({ target: 't', listening: 'l', level: 'document', recording: null });
    const reasons = Object.entries(r.unchecked);
    expect(reasons.length).toBeLessThanOrEqual(51);
    expect(r.unchecked['other reasons']).toBe(151);
    for (const [why] of reasons) expect(why.length).toBeLessThanOrEqual(MAX_FINDING_TEXT + 40);
  });

  it('lists a few API keys without a secret, each short', () => {
    const log = new ProxyLog();
    for (let i = 0; i < 100; i++) log.signature('unverified', `${i}${huge}`);
    const r = log.report({ target: 't', listening: 'l', level: 'document', recording: null });
    expect(r.signatures.unverified).toBe(100);
    expect(r.signatures.keysWithoutSecret.length).toBe(20);
    for (const k of r.signatures.keysWithoutSecret) expect(k.length).toBeLessThan(150);
  });

  it('does not look up, nor keep, an API key longer than any real one (keys database)', async () => {
    let reads = 0;
    const db = {
      run: () => (reads++, Promise.resolve({ secret: 's' })),
    } as unknown as ReferenceDatabase;
    const keys = databaseLookup(db);
    expect(await keys.lookup('a'.repeat(MAX_KEY_LENGTH + 1))).toBeUndefined();
    expect(reads).toBe(0);
    expect(await keys.lookup('ak_1')).toBe('s');
    expect(await keys.lookup('ak_1')).toBe('s');
    expect(reads).toBe(1);
  });
});
