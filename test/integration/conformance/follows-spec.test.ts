// The conformance tables follow the spec: a field added to a copy of the spec becomes an
// expectation of the generated checker.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { generateFiles } from '../../../src/generator/pipeline.js';
import { SPEC_DIR, TEMPLATES_DIR } from '../../support/ir.js';

it('gains an expectation when a field is added to a copy of the spec', async () => {
  const copy = await mkdtemp(join(tmpdir(), 'evgen-spec-'));
  try {
    await cp(SPEC_DIR, join(copy, 'spec'), { recursive: true });
    const file = join(copy, 'spec/types/event.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(
        '      - { name: SubClientCompanyName, type: string, note: version 7 only }',
        '      - { name: SubClientCompanyName, type: string, note: version 7 only }\n      - { name: VenueCapacity, type: int }',
      ),
    );
    const before = (await generateFiles({ specDir: SPEC_DIR, templatesDir: TEMPLATES_DIR })).get(
      'src/conformance.ts',
    )!;
    const after = (
      await generateFiles({ specDir: join(copy, 'spec'), templatesDir: TEMPLATES_DIR })
    ).get('src/conformance.ts')!;
    // Compared without white space: prettier decides where the generated lines break.
    const expectation =
      "{name:'VenueCapacity',value:{kind:'int'},nullable:false,optional:false,item:null,gap:null";
    expect(before).not.toMatch(/VenueCapacity/);
    expect(
      after.split('EventDetailsResponse7: [')[1]!.split('\n    ],')[0]!.replace(/\s+/g, ''),
    ).toContain(expectation);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
});
