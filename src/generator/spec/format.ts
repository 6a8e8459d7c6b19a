// The spec format: one checker per kind of spec file. The TypeScript types of the raw spec are
// inferred from these checkers, so the format is written once.
import {
  anyValue,
  bool,
  int,
  list,
  obj,
  oneOf,
  opt,
  record,
  req,
  str,
  text,
  type Checker,
  type Located,
} from './schema.js';

const PRIMITIVES = ['int', 'string', 'boolean', 'dateTime', 'decimal'] as const;
export type PrimitiveName = (typeof PRIMITIVES)[number];
export const primitiveNames: readonly string[] = PRIMITIVES;

const field = obj({
  name: req(str),
  /** a primitive, `list`, or the name of a complex type */
  type: req(str),
  /** decimal places, required for decimals */
  scale: opt(int),
  /** list item type (primitive or complex), required for lists */
  of: opt(str),
  /** list item element name, required for lists */
  item: opt(str),
  nullable: opt(bool),
  /** may be absent on the wire (minOccurs 0) */
  optional: opt(bool),
  doc: opt(str),
  note: opt(str),
  gap: opt(str),
});

const complexType = obj({
  name: req(str),
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

const parameter = obj({ name: req(str), type: req(str), doc: opt(str) });

const result = obj({
  kind: req(oneOf('none', 'type', 'list')),
  type: opt(str),
  of: opt(str),
  item: opt(str),
  text: req(str),
});

const operation = obj({
  name: req(str),
  purpose: req(str),
  parameters: req(list(parameter)),
  result: req(result),
  /** shown: false marks the document's note A; gap names the decision the HTTP shape follows. */
  http: req(obj({ shown: req(bool), root: opt(str), gap: opt(str) })),
  mutating: opt(bool),
  /** the int parameters that page a list result: records to pass over, and the page size if any */
  paging: opt(obj({ skip: req(str), size: opt(str) })),
  rules: opt(list(str)),
  effects: opt(list(str)),
});

export const operationsFile = obj({ operations: req(list(operation)) });

const binding = obj({
  id: req(oneOf('soap11', 'soap12', 'httpGet', 'httpPost')),
  title: req(str),
  kind: req(oneOf('soap', 'http')),
  soapVersion: opt(oneOf('1.1', '1.2')),
  method: req(oneOf('GET', 'POST')),
  path: req(str),
  requestContentType: opt(str),
  responseContentType: req(str),
  soapAction: opt(str),
  request: req(str),
  response: req(str),
});

export const serviceFile = obj({
  service: req(
    obj({
      name: req(str),
      title: req(str),
      version: req(str),
      doc: req(str),
      endpointPath: req(str),
      namespace: req(obj({ rule: req(str), scheme: req(oneOf('https', 'http')) })),
      wsdl: req(obj({ serviceName: req(str), portTypePrefix: req(str) })),
      elementNames: req(oneOf('case-sensitive')),
    }),
  ),
  bindings: req(list(binding)),
  conventions: req(anyValue as Checker<unknown>),
});

export const primitivesFile = obj({
  primitives: req(
    list(
      obj({
        name: req(oneOf(...PRIMITIVES)),
        xsd: req(str),
        doc: req(str),
        lexical: req(str),
        scales: opt(anyValue as Checker<unknown>),
      }),
    ),
  ),
});

export const authenticationFile = obj({
  authentication: req(
    obj({
      doc: req(str),
      header: req(
        obj({
          element: req(str),
          fields: req(
            list(
              obj({ name: req(str), type: req(oneOf('string')), format: opt(str), doc: req(str) }),
            ),
          ),
        }),
      ),
      signature: req(
        obj({
          algorithm: req(oneOf('HMAC-SHA1')),
          key: req(str),
          message: req(str),
          encoding: req(oneOf('base64')),
        }),
      ),
      rules: req(list(str)),
      httpHeaders: req(
        obj({ apiKey: req(str), timestamp: req(str), signature: req(str), operation: req(str) }),
      ),
      window: req(obj({ clockSkewSeconds: req(int), replay: req(oneOf('refused', 'allowed')) })),
    }),
  ),
});

export const statesFile = obj({ states: req(anyValue as Checker<unknown>) });

export const errorsFile = obj({
  faults: req(
    obj({
      detailElement: req(str),
      codes: req(
        list(
          obj({
            code: req(str),
            doc: req(str),
            soap11: req(oneOf('soap:Client', 'soap:Server')),
            soap12: req(oneOf('soap12:Sender', 'soap12:Receiver')),
            http: req(list(int)),
          }),
        ),
      ),
      soap11Status: req(int),
      soap12Status: req(obj({ sender: req(int), receiver: req(int) })),
    }),
  ),
});

export const gapsFile = obj({
  gaps: req(
    list(
      obj({
        id: req(str),
        section: req(str),
        document: req(str),
        status: req(oneOf('decided', 'open')),
        issue: opt(int),
        decision: req(str),
      }),
    ),
  ),
});

/** The conformance checker's families of checks (its own vocabulary, not the interface's). */
export const CHECK_FAMILIES = [
  'responses',
  'httpShapes',
  'nilAttribute',
  'wsdl',
  'authentication',
  'timestampWindow',
  'httpCredentials',
  'faultForm',
  'unknownOperation',
  'wellFormed',
  'soapAction',
  'bodySize',
  'nesting',
  'faultText',
  'concurrency',
] as const;
export type CheckFamilyName = (typeof CHECK_FAMILIES)[number];
type CheckFamily = { level: 'document' | 'evgen'; source: string; fault: string | undefined };
const checkFamily: Checker<Located<CheckFamily>> = obj({
  level: req(oneOf('document', 'evgen')),
  source: req(str),
  fault: opt(str),
});

// spec/conformance.yaml: how the conformance checker finds values to call operations with.
const source = obj({
  operation: req(str),
  items: opt(str),
  across: opt(str),
  yields: req(record(str)),
});

export const conformanceFile = obj({
  conformance: req(
    obj({
      values: req(
        list(
          obj({
            name: req(str),
            parameters: req(list(str)),
            fixed: opt(text),
            none: opt(str),
            option: opt(str),
            writes: opt(bool),
          }),
        ),
      ),
      sources: req(list(source)),
      writes: req(
        list(
          obj({
            operation: req(str),
            yields: opt(record(str)),
            then: opt(list(source)),
          }),
        ),
      ),
      checks: req(
        obj(
          Object.fromEntries(CHECK_FAMILIES.map((name) => [name, req(checkFamily)])) as Record<
            CheckFamilyName,
            ReturnType<typeof req<Located<CheckFamily>>>
          >,
        ),
      ),
      hostile: req(obj({ bodyBytes: req(int), depth: req(int), concurrent: req(int) })),
    }),
  ),
});

type Checked<C> = C extends Checker<infer T> ? T : never;
export type TypesFile = Checked<typeof typesFile>;
export type SpecType = TypesFile['types'][number];
export type SpecField = NonNullable<SpecType['fields']>[number];
export type OperationsFile = Checked<typeof operationsFile>;
export type SpecOperation = OperationsFile['operations'][number];
export type ServiceFile = Checked<typeof serviceFile>;
export type PrimitivesFile = Checked<typeof primitivesFile>;
export type AuthenticationFile = Checked<typeof authenticationFile>;
export type ErrorsFile = Checked<typeof errorsFile>;
export type GapsFile = Checked<typeof gapsFile>;
export type StatesFile = Checked<typeof statesFile>;
export type ConformanceFile = Checked<typeof conformanceFile>;
export type ConformanceSource = ConformanceFile['conformance']['sources'][number];
