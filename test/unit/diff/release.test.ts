// The package version record (spec/CHANGELOG.md) and the version arithmetic of the gate.
import { describe, expect, it } from 'vitest';
import { AUDIENCES, type Audience, type Change } from '../../../src/diff/model.js';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import {
  bump,
  firstHeading,
  parsePackageVersion,
  requiredLevel,
} from '../../../src/diff/release.js';
import { rule, type RuleId } from '../../../src/diff/rules.js';

describe('parsePackageVersion', () => {
  const cases = [
    { given: '# Log\n\n## 1.0.0\n\nFirst.\n', want: { version: '1.0.0', ignored: [] } },
    {
      given: '# Log\n\n## 2.0.0\n\nBase: 1.0.0 at fc5b3c2\n\n## 1.0.0\n',
      want: { version: '2.0.0', ignored: [{ line: 5, text: 'Base: 1.0.0 at fc5b3c2' }] },
    },
    { given: '## 1.2.3 (unreleased)\n', want: { version: '1.2.3', ignored: [] } },
  ];
  for (const { given, want } of cases)
    it(`reads ${JSON.stringify(given.split('\n').find((l) => l.startsWith('##')))}`, () =>
      expect(parsePackageVersion(given, 'spec/CHANGELOG.md')).toEqual({
        ...want,
        file: 'spec/CHANGELOG.md',
      }));

  const bad = [
    {
      given: '# Log\n',
      want: 'spec/CHANGELOG.md:1:1: the first "## " heading must be the package version (x.y.z) (add a heading "## 1.0.0")',
    },
    {
      given: '# Log\n\n## v1\n',
      want: 'spec/CHANGELOG.md:3:1: the first "## " heading must be the package version (x.y.z)',
    },
  ];
  for (const { given, want } of bad)
    it(`refuses ${JSON.stringify(given)} with file:line:col`, () => {
      expect(() => parsePackageVersion(given, 'spec/CHANGELOG.md')).toThrow(SpecError);
      expect(() => parsePackageVersion(given, 'spec/CHANGELOG.md')).toThrow(want);
    });

  it('reads old changelogs without an opinion: firstHeading', () => {
    expect(firstHeading('## 1.0.0\n')).toBe('1.0.0');
    expect(firstHeading('# nothing\n')).toBeUndefined();
    expect(firstHeading('## next\n## 1.0.0\n')).toBeUndefined();
  });
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
  const ALL = AUDIENCES;
  const LAX_TS: readonly Audience[] = ['wire-lax', 'typescript'];
  const levels: { given: RuleId[]; kept: readonly Audience[]; want: string }[] = [
    { given: [], kept: ALL, want: 'none' },
    { given: ['DOC_CHANGED'], kept: ALL, want: 'patch' },
    { given: ['DOC_CHANGED', 'CONFORMANCE_CHANGED'], kept: ALL, want: 'patch' },
    { given: ['DOC_CHANGED', 'FIELD_ADDED_OPTIONAL'], kept: LAX_TS, want: 'minor' },
    // breaking for wire-strict: major when the project keeps it
    { given: ['DOC_CHANGED', 'FIELD_ADDED_OPTIONAL'], kept: ALL, want: 'major' },
    { given: ['FIELD_ADDED_REQUIRED'], kept: LAX_TS, want: 'major' }, // breaking for typescript
    { given: ['FIELD_ADDED_REQUIRED'], kept: ['wire-lax'], want: 'minor' },
    { given: ['FIELD_NO_MOVE'], kept: LAX_TS, want: 'minor' }, // breaking for wire-strict only
    { given: ['FIELD_NO_MOVE', 'OPERATION_NO_REMOVE'], kept: LAX_TS, want: 'major' },
    { given: ['PAGING_ADDED'], kept: ALL, want: 'minor' }, // client API added: never the same version
    { given: ['PAGING_NO_REMOVE'], kept: LAX_TS, want: 'major' }, // client API removed
  ];
  for (const { given, kept, want } of levels)
    it(`${given.join(' + ') || 'no change'}, keeping ${kept.join(', ')}: ${want}`, () =>
      expect(requiredLevel(given.map(change), kept)).toBe(want));

  const bumps = [
    { given: ['1.2.3', 'major'], want: '2.0.0' },
    { given: ['1.2.3', 'minor'], want: '1.3.0' },
    { given: ['1.2.3', 'patch'], want: '1.2.4' },
  ] as const;
  for (const { given, want } of bumps)
    it(`bumps ${given[0]} ${given[1]} to ${want}`, () =>
      expect(bump(given[0], given[1])).toBe(want));
});
