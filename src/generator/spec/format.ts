// The spec format: one checker per kind of spec file (types and operations here, the service-level
// files in format-service.ts, conformance.yaml in format-conformance.ts). The TypeScript types of
// the raw spec are inferred from these checkers, so the format is written once.
import { bool, int, list, name, obj, oneOf, opt, req, str, type Checker } from './schema.js';

export * from './primitive-names.js';

const field = obj({
  name: req(name, 'the TypeScript property; also the element name, unless xmlName names another'),
  xmlName: opt(name, "the element's name on the wire, when it is not `name`"),
  type: req(str, 'a primitive, `list`, or the name of a complex type'),
  scale: opt(int, 'decimal places, required for decimals'),
  of: opt(str, 'list item type (primitive or complex), required for lists'),
  item: opt(name, 'list item element name, required for lists'),
  nullable: opt(bool, 'may be sent as xsi:nil (TypeScript `T | null`)'),
  alwaysNil: opt(
    bool,
    'always sent as nil (a decision of the gap it names): a value there breaks it',
  ),
  optional: opt(bool, 'may be absent on the wire (minOccurs 0)'),
  doc: opt(str, 'what the document says of the field (TSDoc, help pages)'),
  note: opt(str, "a remark of ours, kept apart from the document's words"),
  gap: opt(str, 'the id of the gaps.yaml decision this field follows'),
});

const complexType = obj({
  name: req(
    name,
    'the TypeScript interface; also the XSD complex type, unless xmlName names another',
  ),
  xmlName: opt(name, "the type's name in the WSDL, when it is not `name`"),
  doc: req(str, 'what the document says of the type'),
  section: req(str, 'the section of the document that shows it'),
  extends: opt(str, 'the complex type whose fields come first'),
  abstract: opt(bool, 'only extended, never sent as itself'),
  fieldOrder: opt(
    oneOf('document', 'grouped-by-type'),
    'document: the document lists the fields in wire order; grouped-by-type: grouped by type, wire order unknown',
  ),
  gap: opt(str, 'the id of the gaps.yaml decision the shape follows'),
  opaque: opt(
    bool,
    'its content is neither shown nor decided (its gap): decoders ignore it, the conformance checker accepts any; no fields',
  ),
  fields: opt(list(field), 'in wire order (or grouped, see fieldOrder)'),
  overrides: opt(list(field), 'fields of the extended type redeclared here'),
});

export const typesFile = obj({
  types: req(list(complexType), 'the complex types of one resource family'),
});

/** A parameter is a primitive; a decimal names its scale. */
const parameter = obj({
  name: req(
    name,
    'the TypeScript property; also the element and HTTP parameter, unless xmlName names another',
  ),
  xmlName: opt(name, "the parameter's element and HTTP name on the wire, when it is not `name`"),
  type: req(str, 'a primitive'),
  scale: opt(int, 'decimal places, required for decimals'),
  doc: opt(str, 'rules for the value (help pages, TSDoc)'),
});

/** none; one value (`type`: a primitive or a complex type); or a list (`of`, items named `item`). */
const result = obj({
  kind: req(oneOf('none', 'type', 'list'), 'no result, one value, or a list'),
  type: opt(str, 'kind type: a primitive or a complex type'),
  of: opt(str, 'kind list: the item type, a primitive or a complex type'),
  item: opt(name, 'kind list: the item element name'),
  scale: opt(int, 'decimal places of a decimal result (or of its items), required for decimals'),
  text: req(str, "the document's words for the result"),
});

const operation = obj({
  name: req(name, "the document's operation name"),
  purpose: req(str, "the document's purpose line"),
  parameters: req(list(parameter), 'in request order; every parameter is required'),
  result: req(result, 'what the operation answers'),
  http: req(
    obj({ shown: req(bool), root: opt(name), gap: opt(str) }),
    "shown: false marks the document's note A; gap names the decision the HTTP shape follows.",
  ),
  mutating: opt(bool, 'changes data: never retried, confirmed in test forms'),
  paging: opt(
    obj({ skip: req(str), size: opt(str) }),
    'the int parameters that page a list result: records to pass over, and the page size if any',
  ),
  rules: opt(list(str), "the document's rules for the operation"),
  effects: opt(list(str), 'what the operation changes'),
});

export const operationsFile = obj({
  operations: req(list(operation), "the operations, in the document's order"),
});

export * from './format-service.js';

export * from './format-conformance.js';

export type Checked<C> = C extends Checker<infer T> ? T : never;
export type TypesFile = Checked<typeof typesFile>;
export type SpecType = TypesFile['types'][number];
export type SpecField = NonNullable<SpecType['fields']>[number];
export type OperationsFile = Checked<typeof operationsFile>;
export type SpecOperation = OperationsFile['operations'][number];
export type SpecParameter = SpecOperation['parameters'][number];
