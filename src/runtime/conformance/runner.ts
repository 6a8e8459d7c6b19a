// A conformance run: discover values, then check the WSDL, every operation on every binding, the
// authentication refusals, an unknown operation, the form of every refusal and (opt-in) hostile
// input. Nothing a server answers ends the run: every check reports, and discovery notes say
// which source failed on which binding and why.
import type { Binding } from '../transport/index.js';
import { createContext, paramsFor, type ConformanceOptions } from './context.js';
import { discover, type DiscoveryNote } from './discover.js';
import { checkUnknownOperation, checkWsdl } from './errors.js';
import { checkHostile } from './hostile.js';
import type { Level } from './model.js';
import { runOperations } from './responses.js';
import type { ConformanceResult } from './results.js';
import { checkAuthentication, checkFaultForm, type Refused } from './security.js';

export interface ConformanceReport {
  readonly level: Level;
  /** The binding ids checked, in the service's order. */
  readonly bindings: readonly Binding[];
  readonly results: readonly ConformanceResult[];
  /** The values operations were called with, by value name. */
  readonly values: Readonly<Record<string, string>>;
  readonly discovery: readonly DiscoveryNote[];
}

export async function runConformance(o: ConformanceOptions): Promise<ConformanceReport> {
  const c = createContext(o);
  const out: ConformanceResult[] = [];
  const notes = await discover(c);
  const values = Object.fromEntries(c.values);
  if (c.level === 'evgen') out.push(await checkWsdl(c));
  await runOperations(c, out, notes);
  for (const binding of c.bindings) {
    const refused: Refused[] = [];
    await checkAuthentication(c, binding, out, refused);
    if (c.level === 'evgen') out.push(await checkUnknownOperation(c, binding, refused));
    if (o.hostile) await checkHostile(c, binding, out, refused);
    if (c.level === 'evgen') out.push(checkFaultForm(c, binding, refused));
  }
  return { level: c.level, bindings: c.bindings, results: out, values, discovery: notes };
}

export type ParamValues = Record<string, string | number | boolean>;

/** Discovery alone: a value for every operation parameter the server's data gives, typed. */
export async function discoverParameters(o: ConformanceOptions): Promise<ParamValues> {
  const c = createContext(o);
  await discover(c);
  const out: ParamValues = {};
  for (const op of c.model.operations) Object.assign(out, paramsFor(c, op).params);
  return out;
}
