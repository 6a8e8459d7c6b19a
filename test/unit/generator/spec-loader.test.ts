// The loader reports every problem with its exact file:line:col, all at once.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { PROJECT_ROOT, SPEC_DIR } from '../../support/ir.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

/** A copy of the real spec with a fixture folder laid over it. */
async function specWith(fixture: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-spec-'));
  temps.push(dir);
  const spec = join(dir, 'spec');
  await cp(SPEC_DIR, spec, { recursive: true });
  await cp(join(PROJECT_ROOT, 'test/fixtures/broken', fixture), spec, { recursive: true });
  return spec;
}

async function errorsOf(fixture: string): Promise<string[]> {
  try {
    await loadSpec(await specWith(fixture));
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return (e as SpecError).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  throw new Error(`fixture ${fixture} loaded without errors`);
}

describe('spec loader diagnostics', () => {
  const cases: { given: string; want: string[] }[] = [
    {
      given: 'unknown-type',
      want: [
        'spec/types/extra.yaml:7:9: unknown type "BookingRespnse" (did you mean "BookingResponse"?)',
      ],
    },
    {
      given: 'duplicate-field',
      want: [
        'spec/types/extra.yaml:8:9: duplicate field "Amount" in type "ExtraResponse" (first defined at spec/types/extra.yaml:6:9)',
      ],
    },
    {
      given: 'missing-scale',
      want: [
        'spec/types/extra.yaml:6:9: decimal field "Price" has no scale (add scale: 2 for money, 5 for rates)',
      ],
    },
    {
      given: 'bad-indentation',
      want: [
        'spec/types/extra.yaml:7:10: bad indentation: this line is indented deeper than the key above it (align it with its sibling keys)',
      ],
    },
  ];
  for (const { given, want } of cases) {
    it(`reports ${given} at its position`, async () => {
      expect(await errorsOf(given)).toEqual(want);
    });
  }

  it('reports many errors at once, format errors before cross-checks', async () => {
    expect(await errorsOf('many-errors')).toEqual(
      [
        'spec/types/extra.yaml:4:5: unknown key "sectoin" (did you mean "section"?)',
        'spec/types/extra.yaml:2:5: missing required key "section"',
      ].sort(),
    );
  });

  it.each([
    {
      given: 'paging: { skip: skip, size: sise }',
      want: 'paging of "GetBookingsBatch" names "sise", which is not an int parameter (did you mean "size"?)',
    },
    {
      given: 'paging: { skip: eventID, size: size }',
      want: 'paging of "GetBookingsBatch" names "eventID", which is not an int parameter (did you mean "eventId"?)',
    },
  ])('reports paging by a parameter that is not there: $given', async ({ given, want }) => {
    const spec = await specWith('unknown-type');
    await rm(join(spec, 'types/extra.yaml'));
    const file = join(spec, 'operations.yaml');
    const text = await readFile(file, 'utf8');
    const line = text.split('\n').indexOf('    paging: { skip: skip, size: size }') + 1;
    expect(line).toBeGreaterThan(0);
    await writeFile(file, text.replace('paging: { skip: skip, size: size }', given));
    await expect(loadSpec(spec)).rejects.toThrow(`spec/operations.yaml:${line}:13: ${want}`);
  });

  it('loads the real spec without errors', async () => {
    await expect(loadSpec(SPEC_DIR)).resolves.toBeDefined();
  });
});
