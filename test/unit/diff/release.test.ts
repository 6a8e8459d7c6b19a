// The package version record (spec/CHANGELOG.md) and the version arithmetic of the gate.
import { describe, expect, it } from 'vitest';
import type { Change } from '../../../src/diff/model.js';
import { bump, parseRelease, requiredLevel, satisfies } from '../../../src/diff/release.js';
import { rule, type RuleId } from '../../../src/diff/rules.js';

describe('parseRelease', () => {
  const cases = [
    { given: '# Log\n\n## 1.0.0\n\nFirst.\n', want: { version: '1.0.0', base: null } },
    {
      given: '# Log\n\n## 2.0.0\n\nBase: 1.0.0 at fc5b3c2\n\n## 1.0.0\n\nBase: 0.9.0 at abcdef1\n',
      want: { version: '2.0.0', base: { version: '1.0.0', commit: 'fc5b3c2' } },
    },
    { given: '## 1.2.3 (unreleased)\n', want: { version: '1.2.3', base: null } },
  ];
  for (const { given, want } of cases)
    it(`reads ${JSON.stringify(given.split('\n').find((l) => l.startsWith('##')))}`, () =>
      expect(parseRelease(given, 'CHANGELOG.md')).toEqual(want));

  const bad = [
    {
      given: '# Log\n',
      want: 'CHANGELOG.md:0: the first "## " heading must be the package version',
    },
    {
      given: '## v1\n',
      want: 'CHANGELOG.md:1: the first "## " heading must be the package version',
    },
    { given: '## 1.0.0\nBase: 1.0 at zz\n', want: 'should read "Base: x.y.z at <commit>"' },
  ];
  for (const { given, want } of bad)
    it(`refuses ${JSON.stringify(given)}`, () =>
      expect(() => parseRelease(given, 'CHANGELOG.md')).toThrow(want));
});

describe('version arithmetic', () => {
  const change = (id: RuleId): Change => ({
    rule: id,
    severities: rule(id).severities,
    path: 'X',
    location: { file: 'spec/x.yaml', line: 1 },
    message: '',
    operations: [],
  });
  const levels: { given: RuleId[]; want: string }[] = [
    { given: [], want: 'none' },
    { given: ['DOC_CHANGED'], want: 'patch' },
    { given: ['DOC_CHANGED', 'CONFORMANCE_CHANGED'], want: 'patch' },
    { given: ['DOC_CHANGED', 'FIELD_ADDED_OPTIONAL'], want: 'minor' },
    { given: ['FIELD_ADDED_REQUIRED'], want: 'major' }, // breaking for typescript
    { given: ['FIELD_NO_MOVE'], want: 'minor' }, // breaking for wire-strict only
    { given: ['FIELD_NO_MOVE', 'OPERATION_NO_REMOVE'], want: 'major' },
    { given: ['PAGING_ADDED'], want: 'minor' }, // client API added: never the same version
    { given: ['PAGING_NO_REMOVE'], want: 'major' }, // client API removed
  ];
  for (const { given, want } of levels)
    it(`${given.join(' + ') || 'no change'} needs ${want}`, () =>
      expect(requiredLevel(given.map(change))).toBe(want));

  const bumps = [
    { given: ['1.2.3', 'major'], want: '2.0.0' },
    { given: ['1.2.3', 'minor'], want: '1.3.0' },
    { given: ['1.2.3', 'patch'], want: '1.2.4' },
  ] as const;
  for (const { given, want } of bumps)
    it(`bumps ${given[0]} ${given[1]} to ${want}`, () =>
      expect(bump(given[0], given[1])).toBe(want));

  const gates = [
    { given: ['1.0.0', '1.0.0', 'none'], want: true },
    { given: ['1.0.0', '1.0.0', 'patch'], want: false },
    { given: ['1.1.0', '1.0.0', 'major'], want: false },
    { given: ['2.0.0', '1.0.0', 'major'], want: true },
    { given: ['3.0.0', '1.0.0', 'minor'], want: true },
    { given: ['1.0.1', '1.0.0', 'minor'], want: false },
  ] as const;
  for (const { given, want } of gates)
    it(`${given[0]} after ${given[1]} with a ${given[2]} change: ${want ? 'accepted' : 'refused'}`, () =>
      expect(satisfies(given[0], given[1], given[2])).toBe(want));
});
