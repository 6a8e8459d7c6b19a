// A wire name apart from the TypeScript name (xmlName) for a field, a parameter and a type: the
// generated TypeScript uses the TypeScript names; everything on the wire (codecs on every binding,
// the WSDL, the conformance model, the help pages) uses the wire names. A stub generated from the
// renamed spec answers the generated client with the elements and parameters it always had, and
// validate refuses wire names that would collide.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVersion } from '../../../src/diff/input.js';
import { loadVersionPackage, type LoadedVersion } from '../../../src/diff/verify/stubs.js';
import { generateFiles, type GeneratedFiles } from '../../../src/generator/pipeline.js';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { typecheckGenerated } from '../../../src/generator/typecheck.js';
import { PROJECT_ROOT, TEMPLATES_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

afterAll(removeSpecCopies);

/** InvoiceUrl, bookingId and BookingDetails keep their wire names under new TypeScript names. */
const RENAMES: readonly SpecEdit[] = [
  {
    file: 'types/booking.yaml',
    from: '{ name: InvoiceUrl, type: string }',
    to: '{ name: InvoiceLink, xmlName: InvoiceUrl, type: string }',
  },
  {
    file: 'types/booking.yaml',
    from: '  - name: BookingDetails\n',
    to: '  - name: BookingSummary\n    xmlName: BookingDetails\n',
  },
  {
    file: 'operations.yaml',
    from: '      - { name: bookingId, type: int }\n    result: { kind: type, type: BookingDetails,',
    to: '      - { name: id, xmlName: bookingId, type: int }\n    result: { kind: type, type: BookingDetails,',
  },
  {
    file: 'operations.yaml',
    from: 'result: { kind: type, type: BookingDetails,',
    to: 'result: { kind: type, type: BookingSummary,',
  },
];

let files: GeneratedFiles;
let specDir: string;
beforeAll(async () => {
  specDir = await specCopy(RENAMES);
  files = await generateFiles({ specDir, templatesDir: TEMPLATES_DIR });
}, 120_000);

describe('xmlName: TypeScript names in the code, wire names on the wire', () => {
  it('type-checks', () =>
    expect(typecheckGenerated(files, join(PROJECT_ROOT, 'generated'), PROJECT_ROOT)).toEqual([]));

  const cases: { file: string; has: string[]; lacks: string[] }[] = [
    {
      file: 'src/types.ts',
      has: ['export interface BookingSummary {', 'InvoiceLink: string;', 'id: number;'],
      lacks: ['interface BookingDetails', 'InvoiceUrl:'],
    },
    {
      file: 'src/codecs.ts',
      has: ["case 'InvoiceUrl':", '<InvoiceUrl>', 'InvoiceLink'],
      lacks: ["case 'InvoiceLink':", '<InvoiceLink>'],
    },
    {
      file: 'src/operations.ts',
      has: [
        "case 'bookingId':",
        '<bookingId>',
        "paramInt(form, 'bookingId')",
        "form.append('bookingId'",
      ],
      lacks: ["case 'id':", "paramInt(form, 'id')", "form.append('id'"],
    },
    {
      file: 'src/wsdl.ts',
      has: [
        '<s:complexType name="BookingDetails">',
        'name="InvoiceUrl"',
        'name="bookingId" type="s:int"',
        'type="tns:BookingDetails"',
      ],
      lacks: ['BookingSummary', 'InvoiceLink', 'name="id"'],
    },
    {
      file: 'src/conformance.ts',
      has: ["name: 'InvoiceUrl'"],
      lacks: ["name: 'InvoiceLink'"],
    },
    {
      file: 'src/help.ts',
      has: ['InvoiceUrl', 'bookingId', 'TypeScript: InvoiceLink', 'TypeScript: id'],
      lacks: [],
    },
  ];
  for (const c of cases)
    it(`${c.file} names ${c.has.join(', ')}`, () => {
      const text = files.get(c.file)!;
      for (const h of c.has) expect(text).toContain(h);
      for (const l of c.lacks) expect(text).not.toContain(l);
    });
});

describe('xmlName on the wire, every binding', () => {
  let loaded: LoadedVersion;
  beforeAll(async () => {
    loaded = await loadVersionPackage(await loadVersion(specDir), TEMPLATES_DIR);
  }, 120_000);
  afterAll(() => loaded?.dispose());

  it('the client sends the wire names, the stub receives the TypeScript names, and back', async () => {
    for (const binding of loaded.version.ir.bindings.map((b) => b.id)) {
      const sent: string[] = [];
      const answers: string[] = [];
      const client = loaded.client(loaded.server.url, binding, {
        onRequest: (r: { url: string; body: string }) => void sent.push(`${r.url} ${r.body}`),
        onResponse: (r: { body: string }) => void answers.push(r.body),
      });
      const got = (await client.getBookingDetails!({ id: 7 })) as Record<string, unknown>;
      expect(loaded.received, binding).toEqual({ op: 'GetBookingDetails', params: { id: 7 } });
      expect(sent[0], binding).toMatch(/<bookingId>7<\/bookingId>|bookingId=7/);
      expect(answers[0], binding).toMatch(/<InvoiceUrl>[^<]+<\/InvoiceUrl>/);
      expect(typeof got.InvoiceLink, binding).toBe('string');
      expect(got, binding).not.toHaveProperty('InvoiceUrl');
    }
  });
});

describe('validate refuses wire names that collide or cannot be XML', () => {
  const cases = [
    {
      given: 'two fields with one wire name',
      edit: {
        file: 'types/booking.yaml',
        from: '{ name: InvoiceUrl, type: string }',
        to: '{ name: InvoiceUrl, xmlName: SecureKey, type: string }',
      },
      want: /spec\/types\/booking\.yaml:\d+:\d+: duplicate wire name "SecureKey" in type "BookingDetails"/,
    },
    {
      given: 'two parameters with one wire name',
      edit: {
        file: 'operations.yaml',
        from: '      - { name: skip, type: int, doc: The number of records to pass over. }\n      - { name: size,',
        to: '      - { name: skip, xmlName: size, type: int, doc: The number of records to pass over. }\n      - { name: size,',
      },
      want: /spec\/operations\.yaml:\d+:\d+: duplicate wire name "size" in operation "GetBookingsBatch"/,
    },
    {
      given: 'two types with one wire name',
      edit: {
        file: 'types/booking.yaml',
        from: '  - name: BookingDetails\n',
        to: '  - name: BookingDetails\n    xmlName: BookingResponse\n',
      },
      want: /spec\/types\/booking\.yaml:\d+:\d+: duplicate wire name "BookingResponse" of a type/,
    },
    {
      given: 'a wire name XML reserves',
      edit: {
        file: 'types/booking.yaml',
        from: '{ name: InvoiceUrl, type: string }',
        to: '{ name: InvoiceUrl, xmlName: xmlUrl, type: string }',
      },
      want: /spec\/types\/booking\.yaml:\d+:\d+: bad name "xmlUrl": XML reserves names starting with "xml"/,
    },
  ];
  for (const c of cases)
    it(c.given, async () => {
      const e = await loadSpec(await specCopy([c.edit])).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(SpecError);
      expect((e as SpecError).message).toMatch(c.want);
    });
});
