// The conformance suite: discover ids, then check the WSDL and, per binding, every operation's
// response, the authentication refusals and the fault shapes.
import { checkAuthentication, checkErrors, checkWsdl } from './checks.js';
import { discover } from './discover.js';
import {
  createContext,
  runOperations,
  type ConformanceOptions,
  type ConformanceResult,
} from './runner.js';

export type { ConformanceModel, FieldSpec, Findings, OperationSpec, ValueSpec } from './model.js';
export type { ConformanceOptions, ConformanceResult } from './runner.js';
export { checkFields, checkResult, checkValue } from './shape.js';
export { discover, type ParamValues } from './discover.js';

export async function runConformance(o: ConformanceOptions): Promise<ConformanceResult[]> {
  const c = createContext(o);
  const bindings = o.bindings ?? o.wire.bindings.map((b) => b.id);
  const out: ConformanceResult[] = [await checkWsdl(c)];
  const values = await discover(c.transport, o.operations);
  if (o.token) values.tokenValue = o.token;
  await runOperations(c, values, bindings, out);
  for (const b of bindings) {
    await checkAuthentication(c, b, out);
    await checkErrors(c, b, out);
  }
  return out;
}
