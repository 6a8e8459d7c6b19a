// The spec format: one checker per kind of spec file (types and operations here, the service-level
// files in format-service.ts, conformance.yaml in format-conformance.ts). The TypeScript types of
// the raw spec are inferred from these checkers, so the format is written once.
import { bool, int, list, name, obj, oneOf, opt, req, str, type Checker } from './schema.js';

export * from './primitive-names.js';

const field = obj({
  name: req(name),
  /** a primitive, `list`, or the name of a complex type */
  type: req(str),
  /** decimal places, required for decimals */
  scale: opt(int),
  /** list item type (primitive or complex), required for lists */
  of: opt(str),
  /** list item element name, required for lists */
  item: opt(name),
  nullable: opt(bool),
  /** always sent as nil (a decision of the gap it names): a value there breaks it */
  alwaysNil: opt(bool),
  /** may be absent on the wire (minOccurs 0) */
  optional: opt(bool),
  doc: opt(str),
  note: opt(str),
  gap: opt(str),
});

const complexType = obj({
  name: req(name),
  doc: req(str),
  section: req(str),
  extends: opt(str),
  abstract: opt(bool),
  /** document: the document lists the fields in wire order; grouped-by-type: grouped by type, wire order unknown */
  fieldOrder: opt(oneOf('document', 'grouped-by-type')),
  gap: opt(str),
  fields: opt(list(field)),
  overrides: opt(list(field)),
});

export const typesFile = obj({ types: req(list(complexType)) });

/** A parameter is a primitive; a decimal names its scale. */
const parameter = obj({ name: req(name), type: req(str), scale: opt(int), doc: opt(str) });

const result = obj({
  kind: req(oneOf('none', 'type', 'list')),
  type: opt(str),
  of: opt(str),
  item: opt(name),
  /** the document's words for the result */
  text: req(str),
});

const operation = obj({
  name: req(name),
  purpose: req(str),
  parameters: req(list(parameter)),
  result: req(result),
  /** shown: false marks the document's note A; gap names the decision the HTTP shape follows. */
  http: req(obj({ shown: req(bool), root: opt(name), gap: opt(str) })),
  mutating: opt(bool),
  /** the int parameters that page a list result: records to pass over, and the page size if any */
  paging: opt(obj({ skip: req(str), size: opt(str) })),
  rules: opt(list(str)),
  effects: opt(list(str)),
});

export const operationsFile = obj({ operations: req(list(operation)) });

export * from './format-service.js';

export * from './format-conformance.js';

export type Checked<C> = C extends Checker<infer T> ? T : never;
export type TypesFile = Checked<typeof typesFile>;
export type SpecType = TypesFile['types'][number];
export type SpecField = NonNullable<SpecType['fields']>[number];
export type OperationsFile = Checked<typeof operationsFile>;
export type SpecOperation = OperationsFile['operations'][number];
export type SpecParameter = SpecOperation['parameters'][number];
