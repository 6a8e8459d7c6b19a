// The format of spec/conformance.yaml: how the conformance checker finds values to call
// operations with, and where each family of its checks comes from.
import type { Checked } from './format.js';
import {
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

export type ConformanceFile = Checked<typeof conformanceFile>;
export type ConformanceSource = ConformanceFile['conformance']['sources'][number];
