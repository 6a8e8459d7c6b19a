// The loader reports every problem with its exact file:line:col, all at once.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { PROJECT_ROOT, SPEC_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));
afterAll(removeSpecCopies);

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

  it('reports format and cross-reference errors together, never blaming a name declared in a broken entry', async () => {
    expect(await errorsOf('many-errors')).toEqual([
      'spec/types/extra.yaml:2:5: missing required key "section"',
      'spec/types/extra.yaml:4:5: unknown key "sectoin" (did you mean "section"?)',
      'spec/types/extra.yaml:11:9: unknown type "integer" (primitives: int, string, boolean, dateTime, decimal; or a type of spec/types/)',
      'spec/types/extra.yaml:12:9: list field "Items" does not name its item element (add item: int)',
    ]);
  });

  it.each([
    {
      given: 'paging: { skip: skip, size: sise }',
      want: 'paging of "GetBookingsBatch" names "sise", which is not a parameter (did you mean "size"?)',
    },
    {
      given: 'paging: { skip: eventID, size: size }',
      want: 'paging of "GetBookingsBatch" names "eventID", which is not a parameter (did you mean "eventId"?)',
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

  it('reports a YAML syntax error first and alone, not the unknown names it causes elsewhere', async () => {
    // BookingDetails is declared in the broken file: operations.yaml's reference to it would
    // otherwise be reported first, as an unknown type.
    const spec = await specCopy([
      {
        file: 'types/booking.yaml',
        from: '{ name: InvoiceUrl, type: string }',
        to: '{ name: InvoiceUrl, type: string',
      },
    ]);
    const e = await loadSpec(spec).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SpecError);
    const found = (e as SpecError).diagnostics.map((d) => `${d.pos.file}: ${d.message}`);
    expect(found.length).toBeGreaterThan(0);
    expect(
      found.every((f) =>
        /^spec\/types\/booking\.yaml: (YAML syntax|bad indentation|duplicate key)/.test(f),
      ),
      found.join('\n'),
    ).toBe(true);
  });

  it('loads the real spec without errors', async () => {
    await expect(loadSpec(SPEC_DIR)).resolves.toBeDefined();
  });
});

/** What validate says about one edit of the real spec. */
async function errorsOfEdit(edit: SpecEdit): Promise<string[]> {
  return loadSpec(await specCopy([edit])).then(
    () => [],
    (e: unknown) => {
      expect(e).toBeInstanceOf(SpecError);
      return (e as SpecError).diagnostics.map((d) => `${d.pos.file}: ${d.message}`);
    },
  );
}

// What generate could not build, or the runtime could not serve, is refused with its position.
describe('spec edits validate refuses', () => {
  const cases: { given: SpecEdit; want: string }[] = [
    {
      given: {
        file: 'types/booking.yaml',
        from: '{ name: IsTest, type: boolean }',
        to: '{ name: Is-Test, type: boolean }',
      },
      want: 'spec/types/booking.yaml: bad name "Is-Test": names are letters, digits and _ (not starting with a digit), so that they are both XML names and TypeScript identifiers',
    },
    {
      given: { file: 'types/booking.yaml', from: 'name: BookingDetails', to: 'name: string' },
      want: 'spec/types/booking.yaml: type name "string" is reserved in the generated TypeScript',
    },
    {
      // Retry-After means nothing on a 409.
      given: {
        file: 'errors.yaml',
        from: 'http: [409]',
        to: 'http: [409]\n      retryAfterSeconds: 5',
      },
      want: 'spec/errors.yaml: fault code Conflict has retryAfterSeconds but neither 503 nor 429 among its HTTP statuses',
    },
    {
      given: { file: 'errors.yaml', from: 'retryAfterSeconds: 1', to: 'retryAfterSeconds: -1' },
      want: 'spec/errors.yaml: retryAfterSeconds of Unavailable must be whole seconds from 0 to 86400, not -1',
    },
    {
      given: {
        file: 'operations.yaml',
        from: '{ name: size, type: int, doc: The batch size. }',
        to: '{ name: size, type: decimal }',
      },
      want: 'spec/operations.yaml: decimal parameter "size" has no scale',
    },
    {
      given: {
        file: 'types/booking.yaml',
        from: '{ name: Tax, type: decimal, scale: 2, doc: Money amount. }',
        to: '{ name: Tax, type: decimal, scale: 3 }',
      },
      want: 'spec/types/booking.yaml: field "Tax" has scale 3, which primitives.yaml does not declare',
    },
    {
      given: { file: 'service.yaml', from: '    dateTime: dateTime', to: '    dateTime: when' },
      want: 'spec/types/booking.yaml: items of a list of dateTime are named "when" (service.yaml conventions.plainListItems), not "dateTime"',
    },
    {
      given: {
        file: 'service.yaml',
        from: 'responseContentType: application/soap+xml; charset=utf-8',
        to: 'responseContentType: application/soap+xml; charset=utf-16',
      },
      want: 'spec/service.yaml: content type "application/soap+xml; charset=utf-16": charset utf-16: the runtime reads and writes UTF-8 only',
    },
    {
      given: {
        file: 'service.yaml',
        from: '    method: POST\n    path: "{endpoint}/{Operation}"',
        to: '    method: GET\n    path: "{endpoint}/{Operation}"',
      },
      want: 'spec/service.yaml: bindings "httpGet" and "httpPost" cannot be told apart by the server',
    },
    {
      given: {
        file: 'types/contact.yaml',
        from: 'nullable: true, alwaysNil: true, gap: contact-password',
        to: 'alwaysNil: true, gap: contact-password',
      },
      want: 'spec/types/contact.yaml: field "Password" is alwaysNil but not nullable with a gap deciding it',
    },
    {
      given: { file: 'states.yaml', from: 'trigger: CancelAttendee', to: 'trigger: CancelAtendee' },
      want: 'spec/states.yaml: transition trigger "CancelAtendee" is not an operation',
    },
    {
      given: { file: 'errors.yaml', from: '      raisedFor: request\n', to: '' },
      want: 'spec/errors.yaml: exactly one code needs raisedFor: request (the engine raises it), found 0',
    },
    {
      // notImplemented is optional (a spec from before it loads), but still one code at most.
      given: { file: 'errors.yaml', from: 'raisedFor: parameter', to: 'raisedFor: notImplemented' },
      want: 'spec/errors.yaml: at most one code may have raisedFor: notImplemented (the engine raises it), found 2',
    },
    {
      given: {
        file: 'operations.yaml',
        from: '{ name: size, type: int, doc: The batch size. }',
        to: '{ name: size, type: string, doc: The batch size. }',
      },
      want: 'spec/operations.yaml: paging of "GetBookingsBatch" names "size", a string: not int',
    },
    {
      given: {
        file: 'types/booking.yaml',
        from: 'name: AttendeeExtResponse',
        to: 'name: BookingDetailsReceived',
      },
      want: 'spec/types/booking.yaml: type "BookingDetailsReceived" is the name of the received form of type "BookingDetails"',
    },
    {
      given: {
        file: 'types/booking.yaml',
        from: 'name: AttendeeExtResponse',
        to: 'name: GetBookingReceived',
      },
      want: 'spec/operations.yaml: type "GetBookingReceived" is the name of this operation\'s received type',
    },
    {
      given: {
        file: 'operations.yaml',
        from: '  - name: GetContact\n',
        to: '  - name: ContactResponse\n',
      },
      want: 'spec/operations.yaml: operation "ContactResponse" has the name of a type: both would have the received type ContactResponseReceived',
    },
    {
      given: {
        file: 'types/event.yaml',
        from: 'gap: website-model',
        to: 'gap: website-model\n    opaque: true',
      },
      want: 'spec/types/event.yaml: type "WebsiteModel" is opaque but has fields or no gap deciding it',
    },
    {
      given: { file: 'service.yaml', from: 'gap: omitted-values', to: 'gap: omitted-value' },
      want: 'spec/service.yaml: unknown gap "omitted-value"',
    },
    {
      given: {
        file: 'service.yaml',
        from: 'values: [string, list, complex]',
        to: 'values: [string, list, string]',
      },
      want: 'spec/service.yaml: duplicate omittedWhenNull value "string"',
    },
    {
      given: { file: 'notes.yaml', from: '', to: 'notes: [a]\n' },
      want: 'spec/notes.yaml: not a spec file: nothing reads it',
    },
  ];
  for (const { given, want } of cases)
    it(`${given.file}: ${want.split(': ').slice(1).join(': ')}`, async () => {
      expect(await errorsOfEdit(given)).toContain(want);
    });
});
