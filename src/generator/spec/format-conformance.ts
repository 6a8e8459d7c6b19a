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
  level: req(
    oneOf('document', 'evgen'),
    "document: the document's rule; evgen: a decision of ours",
  ),
  source: req(str, 'a document section, or gap:<id>'),
  fault: opt(str, 'the fault code the check expects'),
});

const source = obj({
  operation: req(str, 'the read that finds values'),
  items: opt(str, 'the list field to read values from'),
  across: opt(str, 'a value to call it with for each known one'),
  yields: req(record(str), 'value name: the field it is read from'),
});

export const conformanceFile = obj({
  conformance: req(
    obj({
      values: req(
        list(
          obj({
            name: req(str, 'the value name'),
            parameters: req(list(str), 'Operation.parameter pairs it is passed as'),
            fixed: opt(text, 'a fixed value, not discovered'),
            none: opt(str, 'why no value may exist'),
            option: opt(str, 'the evgen conformance option that gives it'),
            writes: opt(bool, 'found by a write (only with --allow-writes)'),
          }),
        ),
      ),
      sources: req(list(source), 'the reads that find values, tried in order'),
      writes: req(
        list(
          obj({
            operation: req(str, 'an operation that changes data'),
            yields: opt(record(str), 'value name: the result field'),
            then: opt(list(source), 'reads run after it'),
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
      hostile: req(
        obj({
          bodyBytes: req(int, 'the size of the oversized body'),
          depth: req(int, 'the nesting depth sent'),
          concurrent: req(int, 'requests sent while one is held open'),
        }),
      ),
    }),
  ),
});

export type ConformanceFile = Checked<typeof conformanceFile>;
export type ConformanceSource = ConformanceFile['conformance']['sources'][number];
