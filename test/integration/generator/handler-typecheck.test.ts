// The compiler guards the wire: a field the spec adds, or an optional field it renames, fails the
// type check at the reference handler that builds the value. Each case edits a copy of the spec,
// generates from it, and type-checks src/reference/handlers against that generated package.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Project, ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOutput } from '../../../src/generator/output.js';
import { generateFiles } from '../../../src/generator/pipeline.js';
import { PROJECT_ROOT, TEMPLATES_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

const temps: string[] = [];
afterAll(async () => {
  await removeSpecCopies();
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

/** The compiler's errors in src/reference when it is built against the package `edit` generates. */
async function handlerErrors(edit: SpecEdit): Promise<string[]> {
  const specDir = await specCopy([edit]);
  const out = await mkdtemp(join(tmpdir(), 'evgen-generated-'));
  temps.push(out);
  await writeOutput(out, await generateFiles({ specDir, templatesDir: TEMPLATES_DIR }));
  const project = new Project({
    tsConfigFilePath: join(PROJECT_ROOT, 'tsconfig.json'),
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      noEmit: true,
      paths: {
        '@evgen/runtime': [join(PROJECT_ROOT, 'src/runtime/index.ts')],
        '@evgen/runtime/internal': [join(PROJECT_ROOT, 'src/runtime/internal.ts')],
        '@evgen/event-management/*': [join(out, 'src/*.ts')],
      },
    },
  });
  project.addSourceFileAtPath(join(PROJECT_ROOT, 'src/reference/handlers/index.ts'));
  project.resolveSourceFileDependencies();
  return project
    .getPreEmitDiagnostics()
    .filter((d) => d.getSourceFile()?.getFilePath().includes('/src/reference/'))
    .map(
      (d) =>
        `${relative(PROJECT_ROOT, d.getSourceFile()!.getFilePath())}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, ' ')}`,
    );
}

describe('reference handlers against a changed spec', () => {
  // want: the handler file the error names, and what the message says about the field.
  const cases: { name: string; given: SpecEdit; want: [file: string, says: string] }[] = [
    {
      name: 'a required field added to EventDetailsResponse7',
      given: {
        file: 'types/event.yaml',
        from: '      - { name: RoadshowId, type: int, note: version 7 only }',
        to: '      - { name: RoadshowId, type: int, note: version 7 only }\n      - { name: Venue, type: string }',
      },
      want: ['src/reference/handlers/event-details.ts', "Property 'Venue' is missing in type"],
    },
    {
      name: 'a required field added to BookingDetails',
      given: {
        file: 'types/booking.yaml',
        from: '      - { name: LeadAttendeeReference, type: string }',
        to: '      - { name: LeadAttendeeReference, type: string }\n      - { name: Channel, type: string }',
      },
      want: ['src/reference/handlers/bookings.ts', "Property 'Channel' is missing in type"],
    },
    {
      name: 'the optional AttendeeResponse.PAName renamed',
      given: {
        file: 'types/booking.yaml',
        from: '{ name: PAName, type: string, optional: true,',
        to: '{ name: PaName, type: string, optional: true,',
      },
      want: [
        'src/reference/handlers/bookings.ts',
        "'PAName' does not exist in type 'AttendeeResponse'",
      ],
    },
    {
      name: 'the optional TicketTypeResponse.MinAge renamed',
      given: {
        file: 'types/ticketing.yaml',
        from: '{ name: MinAge, type: int, optional: true,',
        to: '{ name: MinimumAge, type: int, optional: true,',
      },
      want: [
        'src/reference/handlers/setup.ts',
        `Type '"MinAge"' is not assignable to type 'keyof TicketTypeResponse'`,
      ],
    },
  ];
  for (const { name, given, want } of cases)
    it(`names the handler: ${name}`, async () => {
      const errors = await handlerErrors(given);
      const [file, says] = want;
      expect(
        errors.some((e) => e.startsWith(`${file}: `) && e.includes(says)),
        errors.join('\n'),
      ).toBe(true);
    }, 120_000);

  it('finds nothing to say about the spec as it is', async () => {
    expect(await handlerErrors({ file: 'gaps.yaml', from: 'gaps:', to: 'gaps:' })).toEqual([]);
  }, 120_000);
});
