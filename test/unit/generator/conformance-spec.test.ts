// spec/conformance.yaml is checked against the rest of the spec: a parameter no value takes, a
// path that does not exist in the types, a write listed as a read, or a source that is no gap
// is refused with its place, so discovery never meets a name it cannot fill.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { SPEC_DIR } from '../../support/ir.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

/** The errors of a copy of the spec with one text replaced in one file. */
async function errorsWith(file: string, from: string, to: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-spec-'));
  temps.push(dir);
  await cp(SPEC_DIR, join(dir, 'spec'), { recursive: true });
  const path = join(dir, 'spec', file);
  const text = await readFile(path, 'utf8');
  expect(text).toContain(from);
  await writeFile(path, text.replace(from, to));
  try {
    await loadSpec(join(dir, 'spec'));
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return (e as SpecError).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  return [];
}

/** The line of spec/conformance.yaml that declares the value `name`. */
const valueLine = async (name: string) =>
  (await readFile(join(SPEC_DIR, 'conformance.yaml'), 'utf8'))
    .split('\n')
    .findIndex((l) => l.startsWith(`    - { name: ${name}, `)) + 1;

describe('spec/conformance.yaml cross-checks', async () => {
  const eventIdLine = await valueLine('eventId');
  const cases: { given: [string, string, string]; want: RegExp }[] = [
    {
      given: [
        'operations.yaml',
        '      - { name: roadshowId, type: int }',
        '      - { name: roadshowId, type: int }\n      - { name: venueId, type: int }',
      ],
      want: /^spec\/operations\.yaml:\d+:\d+: parameter "venueId" of "GetTicketTypesByRoadshowId" is taken by no value of spec\/conformance\.yaml/,
    },
    {
      given: [
        'conformance.yaml',
        'yields: { eventId: Event/EventId }',
        'yields: { eventId: Event/EventID }',
      ],
      want: /^spec\/conformance\.yaml:\d+:\d+: EventProfileSearch eventId: type "Event" has no element "EventID" \(did you mean "EventId"\?\)$/,
    },
    {
      given: [
        'conformance.yaml',
        '    - { operation: CancelBooking }',
        '    - { operation: CancelBookings }',
      ],
      want: /^spec\/conformance\.yaml:\d+:\d+: unknown operation "CancelBookings" \(did you mean "CancelBooking"\?\)$/,
    },
    {
      given: ['conformance.yaml', 'source: timestamp-window', 'source: timestamp-windows'],
      want: /^spec\/conformance\.yaml:\d+:\d+: check family "timestampWindow" is evgen-level: its source must be a gap id or a spec\/ file \(did you mean "timestamp-window"\?\)$/,
    },
    {
      given: ['conformance.yaml', 'fault: AuthenticationFailed }', 'fault: AuthFailed }'],
      want: /^spec\/conformance\.yaml:\d+:\d+: unknown fault code "AuthFailed"/,
    },
    {
      // A value of the same name in another case exists: the advice is to add the parameter to it.
      given: [
        'operations.yaml',
        '      - { name: roadshowId, type: int }',
        '      - { name: roadshowId, type: int }\n      - { name: EventID, type: int }',
      ],
      want: new RegExp(
        `^spec/operations\\.yaml:\\d+:\\d+: parameter "EventID" of "GetTicketTypesByRoadshowId" is taken by no value of spec/conformance\\.yaml \\(add EventID to the parameters of the value "eventId" at spec/conformance\\.yaml:${eventIdLine}: parameters: \\[eventId, EventID\\]\\)$`,
      ),
    },
  ];
  it.each(cases)('$given.0: $given.2', async ({ given, want }) => {
    const errors = await errorsWith(...given);
    expect(
      errors.some((e) => want.test(e)),
      errors.join('\n'),
    ).toBe(true);
  });

  it('names parameters by their wire names: a TypeScript-only rename keeps its value', async () => {
    const errors = await errorsWith(
      'operations.yaml',
      '      - { name: roadshowId, type: int }',
      '      - { name: id, xmlName: roadshowId, type: int }',
    );
    expect(errors).toEqual([]);
  });

  it('refuses a write listed among the reads', async () => {
    const errors = await errorsWith(
      'conformance.yaml',
      '  sources:\n',
      '  sources:\n    - { operation: CancelBooking, yields: {} }\n',
    );
    expect(
      errors.some((e) => e.endsWith('"CancelBooking" changes data: list it under writes')),
    ).toBe(true);
  });
});
