// Rule IDs are a union the compiler checks: a misspelt rule fails `npm run typecheck`, and the
// typed table a page generator reads holds every rule once, as `rule()` finds it.
import { describe, expect, it } from 'vitest';
import { AUDIENCES, SEVERITIES } from '../../../src/diff/model.js';
import { rule, RULE_TABLE } from '../../../src/diff/rules.js';

describe('rule ids', () => {
  it('a misspelt rule id does not compile (and throws if forced)', () => {
    // @ts-expect-error: OPERATION_ADDD is not a RuleId
    expect(() => rule('OPERATION_ADDD')).toThrow('no diff rule OPERATION_ADDD');
  });

  it('the table holds each rule once, with a severity per audience and what it catches', () => {
    const ids = RULE_TABLE.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULE_TABLE) {
      expect(rule(r.id)).toEqual(r);
      expect(r.catches).toMatch(/^[a-z].+[^.]$/);
      for (const a of AUDIENCES) expect(SEVERITIES).toContain(r.severities[a]);
    }
  });
});
