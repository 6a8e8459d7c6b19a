// What the proxy holds is bounded: body copies by a per-body bound and a shared budget (given
// back when released), Timestamps remembered for replays by the window and a count.
import { describe, expect, it } from 'vitest';
import { Budget, Capture } from '../../../src/proxy/capture.js';
import { ProxyLog } from '../../../src/proxy/report.js';
import { TimestampMemory } from '../../../src/proxy/timestamps.js';
import type { Finding } from '../../../src/proxy/finding.js';

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
