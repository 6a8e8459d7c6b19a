// The conformance checker behind `evgen conformance` and the generated suite: it holds any server
// against the tables a generated package gives it (ConformanceModel).
export type {
  CheckFamily,
  CheckSource,
  ConformanceModel,
  FieldSpec,
  Level,
  OperationSpec,
  ValueDef,
  ValueSource,
  ValueSpec,
} from './model.js';
export { LEVELS } from './model.js';
export type { ConformanceOptions } from './context.js';
export { REFUSALS, type RefusalDef, type RefusalKind } from './refusals.js';
export { CHECK_NAMES, sourceName, type CheckStatus, type ConformanceResult } from './results.js';
export type { DiscoveryNote } from './discover.js';
export {
  discoverParameters,
  runConformance,
  type ConformanceReport,
  type ParamValues,
} from './runner.js';
export { formatReport, formatMarkdown, summarize } from './report.js';
export { AnswerChecker, type AnswerCheckOptions, type RawAnswer } from './answers.js';
