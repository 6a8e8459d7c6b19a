// The spec files' JSON Schemas (docs/reference/spec-schema/, written from the loader's checkers)
// against the loader itself: ajv accepts every spec file, each file names its schema on its first
// line, and on a corpus of edits of every key of every spec file (an unknown key, a key removed, a
// value of another type) the schema refuses exactly what `evgen validate`'s format check refuses.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type YAMLMap,
} from 'yaml';
import { formatOf, schemaComment, schemaPathOf } from '../../../src/docs/spec-schema.js';
import type { Diagnostic } from '../../../src/generator/spec/diagnostics.js';
import type { Checker, JsonSchema } from '../../../src/generator/spec/schema.js';
import { PROJECT_ROOT, SPEC_DIR } from '../../support/ir.js';

const SPEC_FILES = [
  ...readdirSync(SPEC_DIR).filter((n) => n.endsWith('.yaml')),
  ...readdirSync(join(SPEC_DIR, 'types')).map((n) => `types/${n}`),
].sort();

const ajv = new Ajv({ allErrors: true, strict: true });
const validators = new Map<string, ValidateFunction>();
function validatorOf(file: string): ValidateFunction {
  const path = schemaPathOf(formatOf(file)!.file);
  let v = validators.get(path);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(join(PROJECT_ROOT, path), 'utf8')) as object);
    validators.set(path, v);
  }
  return v;
}

/** Whether the loader's format check refuses the document (cross-references are not its part). */
function loaderRefuses(doc: Document, format: Checker<unknown>): boolean {
  const found: Diagnostic[] = [];
  const ctx = { file: 'spec', lines: new LineCounter(), report: (d: Diagnostic) => found.push(d) };
  format(doc.contents, ctx, { file: 'spec', line: 1, col: 1 });
  return found.length > 0;
}

type Path = (string | number)[];
interface Edit {
  readonly what: string;
  readonly apply: (doc: Document) => void;
}

/** Every node's path, first occurrence of each key path only (list indices counted as one). */
function paths(node: unknown, at: Path = [], seen = new Set<string>()): Path[] {
  const shape = at.map((k) => (typeof k === 'number' ? '[]' : k)).join('.');
  if (seen.has(shape)) return [];
  seen.add(shape);
  const out: Path[] = [at];
  if (isMap(node))
    for (const pair of node.items)
      out.push(
        ...paths(pair.value, [...at, String((pair.key as Node & { value: unknown }).value)], seen),
      );
  if (isSeq(node)) node.items.forEach((item, i) => out.push(...paths(item, [...at, i], seen)));
  return out;
}

/** Values of every kind a key might wrongly hold. */
const OTHER_VALUES: readonly [string, unknown][] = [
  ['a mapping', { someKey: 1 }],
  ['a list', ['x']],
  ['an integer', 7],
  ['a fraction', 1.5],
  ['a boolean', true],
  ['an empty string', ''],
  ['a name', 'Abc'],
  ['words', 'not a name'],
  ['a name starting with xml', 'xmlThing'],
  ['__proto__', '__proto__'],
];

function editsOf(doc: Document, seen: Set<string>): Edit[] {
  const edits: Edit[] = [];
  for (const path of paths(doc.contents, [], seen)) {
    const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
    const where = path.join('.') || '(root)';
    if (isMap(node))
      edits.push({
        what: `${where}: unknown key`,
        apply: (d) => {
          const map = path.length === 0 ? d.contents : d.getIn(path, true);
          (map as YAMLMap).add(d.createPair('zzUnknown', 'x'));
        },
      });
    if (path.length > 0 && typeof path.at(-1) === 'string')
      edits.push({ what: `${where}: removed`, apply: (d) => d.deleteIn(path) });
    if (path.length > 0 && (isScalar(node) || isMap(node) || isSeq(node)))
      for (const [name, value] of OTHER_VALUES)
        edits.push({ what: `${where}: ${name}`, apply: (d) => d.setIn(path, d.createNode(value)) });
  }
  return edits;
}

/** The edits on which the schema and the loader disagree, and how many each refused. */
function compare(files: readonly string[], validate: (json: unknown) => boolean) {
  const seen = new Set<string>(); // files of one format share their key paths
  const disagreements: string[] = [];
  let refused = 0;
  let count = 0;
  for (const file of files) {
    const format = formatOf(file)!.format;
    const original = parseDocument(readFileSync(join(SPEC_DIR, file), 'utf8'));
    for (const edit of editsOf(original, seen)) {
      const doc = original.clone();
      edit.apply(doc);
      const loader = loaderRefuses(doc, format);
      const schema = !validate(doc.toJS());
      count++;
      if (loader) refused++;
      if (loader !== schema)
        disagreements.push(
          `${file} ${edit.what}: loader ${loader ? 'refuses' : 'accepts'}, schema ${schema ? 'refuses' : 'accepts'}`,
        );
    }
  }
  return { edits: count, refused, disagreements };
}

/** The spec files by the format they are checked against. */
const BY_FORMAT = [...new Set(SPEC_FILES.map((f) => formatOf(f)!.file))].map(
  (format) => [format, SPEC_FILES.filter((f) => formatOf(f)!.file === format)] as const,
);

describe('the spec files and their JSON Schemas', () => {
  it.each(SPEC_FILES)(
    '%s names its schema on its first line, and the schema accepts it',
    (file) => {
      const text = readFileSync(join(SPEC_DIR, file), 'utf8');
      expect(text.split('\n', 1)[0]).toBe(schemaComment(file));
      const validate = validatorOf(file);
      expect(validate(parseDocument(text).toJS()), ajv.errorsText(validate.errors)).toBe(true);
    },
  );

  it.each(BY_FORMAT)('%s: the schema refuses exactly the edits the loader refuses', (_, files) => {
    const validate = validatorOf(files[0]!);
    const { edits, refused, disagreements } = compare(files, (json) => validate(json));
    expect(disagreements).toEqual([]);
    // a corpus where nothing is refused, or everything, would show nothing
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(edits);
  });

  it('the comparison catches a schema that lets unknown keys through', () => {
    const file = 'service.yaml';
    const schema = JSON.parse(
      readFileSync(join(PROJECT_ROOT, schemaPathOf(file)), 'utf8'),
    ) as JsonSchema;
    const lax = new Ajv({ strict: false }).compile({ ...schema, additionalProperties: true });
    const { disagreements } = compare([file], (json) => lax(json));
    expect(disagreements).toContain(
      'service.yaml (root): unknown key: loader refuses, schema accepts',
    );
  });
});
