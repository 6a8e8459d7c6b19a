// Every kind of operation result, held both ways: what validate accepts, generate builds (and the
// generated code type-checks, with the WSDL naming the result's type); what generate cannot
// build, validate refuses at the result's file:line:col. Then the scalar results end to end: a
// generated stub answers each one on every binding (`<GetRIntResult>42</GetRIntResult>`, as an
// ASMX service does), the generated client reads the value back, and the conformance checker
// finds every answer conforming.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVersion } from '../../../src/diff/input.js';
import { loadVersionPackage, type LoadedVersion } from '../../../src/diff/verify/stubs.js';
import { resultSample } from '../../../src/diff/verify/values.js';
import { generateFiles } from '../../../src/generator/pipeline.js';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { typecheckGenerated } from '../../../src/generator/typecheck.js';
import type { ConformanceReport } from '../../../src/runtime/index.js';
import { PROJECT_ROOT, TEMPLATES_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

afterAll(removeSpecCopies);

const ANCHOR = '  - name: GetBookingDetails\n';
/** A read operation of `name` with `result`, before GetBookingDetails. */
const operation = (name: string, result: string, root: string | null): string =>
  `  - name: ${name}\n    purpose: A test result.\n    parameters:\n      - { name: eventId, type: int }\n` +
  `    result: ${result}\n    http: { shown: false, gap: http-note-a${root ? `, root: ${root}` : ''} }\n\n`;
const addOperations = (ops: string): SpecEdit => ({
  file: 'operations.yaml',
  from: ANCHOR,
  to: `${ops}${ANCHOR}`,
});
/** Lists of booleans and decimals need their item names, as service.yaml's conventions say. */
const MORE_ITEMS: SpecEdit = {
  file: 'service.yaml',
  from: '    dateTime: dateTime\n',
  to: '    dateTime: dateTime\n    boolean: boolean\n    decimal: decimal\n',
};

interface Accepted {
  readonly given: string;
  readonly result: string;
  readonly root: string | null;
  /** The type of the result element in the WSDL; null without one. */
  readonly wsdl: string | null;
  /** A scalar result, called end to end below. */
  readonly scalar?: true;
}

const ACCEPTED: readonly Accepted[] = [
  { given: 'no result', result: '{ kind: none, text: none }', root: null, wsdl: null },
  {
    given: 'a complex type',
    result: '{ kind: type, type: BookingDetails, text: x }',
    root: 'BookingDetails',
    wsdl: 'tns:BookingDetails',
  },
  {
    given: 'an int',
    result: '{ kind: type, type: int, text: x }',
    root: 'int',
    wsdl: 's:int',
    scalar: true,
  },
  {
    given: 'a string',
    result: '{ kind: type, type: string, text: x }',
    root: 'string',
    wsdl: 's:string',
    scalar: true,
  },
  {
    given: 'a boolean',
    result: '{ kind: type, type: boolean, text: x }',
    root: 'boolean',
    wsdl: 's:boolean',
    scalar: true,
  },
  {
    given: 'a dateTime',
    result: '{ kind: type, type: dateTime, text: x }',
    root: 'dateTime',
    wsdl: 's:dateTime',
    scalar: true,
  },
  {
    given: 'a decimal',
    result: '{ kind: type, type: decimal, scale: 2, text: x }',
    root: 'decimal',
    wsdl: 's:decimal',
    scalar: true,
  },
  {
    given: 'a list of a complex type',
    result: '{ kind: list, of: BookingDetails, item: BookingDetails, text: x }',
    root: 'ArrayOfBookingDetails',
    wsdl: 'tns:ArrayOfBookingDetails',
  },
  {
    given: 'a list of int',
    result: '{ kind: list, of: int, item: int, text: x }',
    root: 'ArrayOfInt',
    wsdl: 'tns:ArrayOfInt',
    scalar: true,
  },
  {
    given: 'a list of string',
    result: '{ kind: list, of: string, item: string, text: x }',
    root: 'ArrayOfString',
    wsdl: 'tns:ArrayOfString',
    scalar: true,
  },
  {
    given: 'a list of boolean',
    result: '{ kind: list, of: boolean, item: boolean, text: x }',
    root: 'ArrayOfBoolean',
    wsdl: 'tns:ArrayOfBoolean',
    scalar: true,
  },
  {
    given: 'a list of dateTime',
    result: '{ kind: list, of: dateTime, item: dateTime, text: x }',
    root: 'ArrayOfDateTime',
    wsdl: 'tns:ArrayOfDateTime',
    scalar: true,
  },
  {
    given: 'a list of decimal',
    result: '{ kind: list, of: decimal, scale: 5, item: decimal, text: x }',
    root: 'ArrayOfDecimal',
    wsdl: 'tns:ArrayOfDecimal',
    scalar: true,
  },
];

const REFUSED = [
  {
    given: 'a decimal without its scale',
    result: '{ kind: type, type: decimal, text: x }',
    root: 'decimal',
    want: 'decimal result of "GetR" has no scale (add scale: 2 for money, 5 for rates)',
  },
  {
    given: 'a scale on an int',
    result: '{ kind: type, type: int, scale: 2, text: x }',
    root: 'int',
    want: 'result of "GetR" has a scale but is not a decimal',
  },
  {
    given: 'a list of decimal without its scale',
    result: '{ kind: list, of: decimal, item: decimal, text: x }',
    root: 'ArrayOfDecimal',
    want: 'decimal result of "GetR" has no scale',
  },
  {
    given: 'an unknown type',
    result: '{ kind: type, type: float, text: x }',
    root: 'float',
    want: 'unknown type "float" (primitives: int, string, boolean, dateTime, decimal; or a type of spec/types/)',
  },
  {
    given: 'an abstract type',
    result: '{ kind: type, type: EventDetailsCommon, text: x }',
    root: 'X',
    want: 'type "EventDetailsCommon" is abstract and cannot be used as a field or result',
  },
  {
    given: 'a list of lists',
    result: '{ kind: list, of: list, item: x, text: x }',
    root: 'X',
    want: 'a list item cannot itself be a list',
  },
  {
    given: 'kind type without a type',
    result: '{ kind: type, text: x }',
    root: 'X',
    want: 'result of "GetR" has kind type but no type',
  },
  {
    given: 'kind none with a type',
    result: '{ kind: none, type: int, text: x }',
    root: null,
    want: 'result of "GetR" has kind none but names a type',
  },
  {
    given: 'a plain list item named against the conventions',
    result: '{ kind: list, of: int, item: number, text: x }',
    root: 'X',
    want: 'items of a list of int are named "int"',
  },
];

const opName = (c: Accepted) =>
  `GetR${c.given
    .replace(/^(an?|no) /, '')
    .replace(/\W+(\w)/g, (_, x: string) => x.toUpperCase())
    .replace(/^\w/, (x) => x.toUpperCase())}`;
/** The project's spec with one operation per accepted kind of result. */
const allKinds = () =>
  specCopy([
    MORE_ITEMS,
    addOperations(ACCEPTED.map((c) => operation(opName(c), c.result, c.root)).join('')),
  ]);

describe('validate accepts exactly what generate builds, for every kind of result', () => {
  let files: ReadonlyMap<string, string>;
  let errors: string[];
  beforeAll(async () => {
    const specDir = await allKinds();
    await loadSpec(specDir);
    files = await generateFiles({ specDir, templatesDir: TEMPLATES_DIR });
    errors = typecheckGenerated(files, join(PROJECT_ROOT, 'generated'), PROJECT_ROOT);
  }, 180_000);

  it('validate accepts them all and the generated code type-checks', () =>
    expect(errors).toEqual([]));

  for (const c of ACCEPTED)
    it(`builds ${c.given}: the WSDL, the help page, the conformance model`, () => {
      const name = opName(c);
      const wsdl = files.get('src/wsdl.ts')!;
      if (c.wsdl) expect(wsdl).toContain(`name="${name}Result" type="${c.wsdl}" />`);
      else expect(wsdl).not.toContain(`${name}Result`);
      expect(files.get('src/help.ts')).toContain(`${name}: `);
      expect(files.get('src/conformance.ts')).toContain(`name: '${name}'`);
    });

  for (const c of REFUSED)
    it(`refuses ${c.given} at the result's line`, async () => {
      const specDir = await specCopy([
        MORE_ITEMS,
        addOperations(operation('GetR', c.result, c.root)),
      ]);
      const line =
        (await readFile(join(specDir, 'operations.yaml'), 'utf8'))
          .split('\n')
          .findIndex((l) => l.startsWith(`    result: ${c.result}`)) + 1;
      const e = await loadSpec(specDir).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(SpecError);
      const found = (e as SpecError).diagnostics.map(
        (d) => `${d.pos.file}:${d.pos.line} ${d.message}${d.hint ? ` (${d.hint})` : ''}`,
      );
      expect(
        found.some((f) => f.startsWith(`spec/operations.yaml:${line} `) && f.includes(c.want)),
        found.join('\n'),
      ).toBe(true);
    });
});

describe('scalar results end to end', () => {
  const scalars = ACCEPTED.filter((c) => c.scalar);
  const opName = (c: Accepted) =>
    `GetR${c.given
      .replace(/^an? /, '')
      .replace(/\W+(\w)/g, (_, x: string) => x.toUpperCase())
      .replace(/^\w/, (x) => x.toUpperCase())}`;
  let loaded: LoadedVersion;

  beforeAll(async () => {
    const specDir = await specCopy([
      MORE_ITEMS,
      addOperations(scalars.map((c) => operation(opName(c), c.result, c.root)).join('')),
    ]);
    loaded = await loadVersionPackage(await loadVersion(specDir), TEMPLATES_DIR);
  }, 120_000);
  afterAll(() => loaded?.dispose());

  for (const c of scalars)
    it(`${c.given}: every binding answers it and the client reads it back`, async () => {
      const op = loaded.version.ir.operations.find((o) => o.name === opName(c))!;
      const want = resultSample(loaded.version.ir, op, 'full');
      for (const binding of loaded.version.ir.bindings.map((b) => b.id)) {
        const bodies: string[] = [];
        const client = loaded.client(loaded.server.url, binding, {
          onResponse: (r: { body: string }) => void bodies.push(r.body),
        });
        const got = await client[op.method]!({ eventId: 1 });
        expect(JSON.parse(JSON.stringify(got)), binding).toEqual(want);
        const text = Array.isArray(want)
          ? `<${op.result.kind === 'list' ? op.result.itemElement : ''}>${String(want[0])}<`
          : `>${String(want)}<`;
        expect(bodies[0], binding).toContain(text);
        if (binding === 'soap11' && !Array.isArray(want))
          expect(bodies[0]).toContain(`<${op.name}Result>${String(want)}</${op.name}Result>`);
      }
    });

  it('the conformance checker finds every answer conforming', async () => {
    const { checkConformance } = (await import(
      pathToFileURL(join(loaded.dir, 'src/conformance.ts')).href
    )) as {
      checkConformance: (o: object) => Promise<ConformanceReport>;
    };
    const report = await checkConformance({
      url: loaded.server.url,
      apiKey: 'evgen-verify',
      secretKey: 'evgen-verify-secret',
      level: 'evgen',
      values: { eventId: '1' },
      only: scalars.map(opName),
    });
    const mine = report.results.filter((r) => scalars.some((c) => r.group === opName(c)));
    expect(mine.length).toBeGreaterThanOrEqual(scalars.length * 4);
    expect(
      mine
        .filter((r) => r.status !== 'pass')
        .map(
          (r) =>
            `${r.group} ${r.binding} ${r.check}: ${r.status} ${[...r.failures, r.reason ?? ''].join('; ')}`,
        ),
    ).toEqual([]);
  }, 60_000);
});
