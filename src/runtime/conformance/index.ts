// The conformance checker behind `evgen conformance` and the generated suite: it holds any server
// against the tables a generated package gives it (ConformanceModel). What it offers the two entry
// points (../index.ts, ../internal.ts), by name.
export { AnswerChecker, type RawAnswer } from './answers.js';
export { type ConformanceOptions } from './context.js';
export { type DiscoveryNote } from './discover.js';
export {
  LEVELS,
  type CheckFamily,
  type CheckSource,
  type ConformanceModel,
  type FieldSpec,
  type Level,
  type OperationSpec,
  type ValueDef,
  type ValueSource,
  type ValueSpec,
} from './model.js';
export { REFUSALS, type RefusalDef, type RefusalKind } from './refusals.js';
export { formatMarkdown, formatReport, summarize } from './report.js';
export { sourceName, type CheckStatus, type ConformanceResult } from './results.js';
export {
  discoverParameters,
  runConformance,
  type ConformanceReport,
  type ParamValues,
} from './runner.js';
