// Finds the values to call operations with, from the model's table of sources (read operations
// and the paths in their results): each source is tried over every binding until one answers, and
// over every candidate of a value it needs until one yields. Results are read leniently (by local
// names, nothing decoded), so a server's shape defects are reported by the response checks, not
// here; a source that fails is noted with its operation, binding and reason, and the run goes on.
import { parseSoapEnvelope, parseXml, XSI_NS, type XmlElement } from '../xml/index.js';
import type { Binding } from '../transport/index.js';
import { isSoap, operationSpec, paramsFor, type Ctx } from './context.js';
import type { OperationSpec, ValueSource } from './model.js';
import { describe, notImplemented, send } from './wire.js';

export interface DiscoveryNote {
  readonly operation: string;
  readonly binding: Binding | null;
  readonly reason: string;
}

/** How many candidates of a value a source tries before giving up. */
const MAX_CANDIDATES = 12;

/** The result element of an answer (the root for HTTP bindings), or a reason there is none. */
export function resultElement(
  c: Ctx,
  op: OperationSpec,
  binding: Binding,
  body: Uint8Array,
): XmlElement | string {
  try {
    if (!isSoap(c, binding)) return parseXml(body);
    const response = parseSoapEnvelope(body).payload;
    if (!response) return 'the SOAP Body is empty';
    return (
      response.children.find((el) => el.name === op.resultElement) ??
      `${response.name} holds no ${op.resultElement}`
    );
  } catch (e) {
    return `not readable XML: ${(e as Error).message}`;
  }
}

const isNil = (el: XmlElement) =>
  el.attributes[`{${XSI_NS}}nil`] === 'true' || el.attributes.nil === 'true';

function walk(from: readonly XmlElement[], path: readonly string[]): XmlElement[] {
  let at = [...from];
  for (const name of path) at = at.flatMap((el) => el.children.filter((k) => k.name === name));
  return at;
}

/** Per item, the values its paths lead to (non-empty, non-nil text only). */
export function readYields(c: Ctx, result: XmlElement, s: ValueSource): Map<string, string>[] {
  const none = (value: string) => c.model.values.find((v) => v.name === value)?.none ?? null;
  return walk([result], s.items).map((item) => {
    const got = new Map<string, string>();
    for (const y of s.yields) {
      const el = walk([item], y.path).find(
        (e) => !isNil(e) && e.text.trim() !== '' && e.text.trim() !== none(y.value),
      );
      if (el) got.set(y.value, el.text.trim());
    }
    return got;
  });
}

/**
 * Runs one source. `override`: its values replace known ones (after a write); otherwise a source
 * whose values are all known already is not called.
 */
export async function runSource(
  c: Ctx,
  s: ValueSource,
  notes: DiscoveryNote[],
  override = false,
): Promise<void> {
  if (!override && s.yields.every((y) => c.values.has(y.value))) return;
  const op = operationSpec(c, s.operation);
  const { missing } = paramsFor(c, op);
  if (s.across !== null && !missing.includes(s.across) && c.candidates.has(s.across))
    missing.unshift(s.across);
  if (missing.length > 1 || (missing.length === 1 && !c.candidates.has(missing[0]!)))
    return void notes.push({
      operation: op.name,
      binding: null,
      reason: `not called: needs ${missing.join(', ')}`,
    });
  const input = missing[0];
  const tries = input ? c.candidates.get(input)!.slice(0, MAX_CANDIDATES) : [undefined];
  for (const candidate of tries) {
    const values = new Map(c.values);
    if (input && candidate !== undefined) values.set(input, candidate);
    const items = await callSource(c, op, s, values, notes);
    if (!items) continue;
    const best = items.find((m) => m.size === s.yields.length) ?? items.find((m) => m.size > 0);
    if (!best) continue;
    if (input && candidate !== undefined && input !== s.across) c.values.set(input, candidate);
    for (const [name, v] of best) if (override || !c.values.has(name)) c.values.set(name, v);
    for (const y of s.yields) {
      const all = [...new Set(items.flatMap((m) => m.get(y.value) ?? []))];
      if (all.length && (override || !c.candidates.has(y.value))) c.candidates.set(y.value, all);
    }
    if (best.size === s.yields.length) return;
  }
  if (s.yields.some((y) => !c.values.has(y.value)))
    notes.push({
      operation: op.name,
      binding: null,
      reason: `yielded no ${s.yields
        .filter((y) => !c.values.has(y.value))
        .map((y) => y.value)
        .join(', ')}${input ? ` for any of ${tries.length} ${input} candidate(s)` : ''}`,
    });
}

/** The source's items from the first binding that answers with a readable result. */
async function callSource(
  c: Ctx,
  op: OperationSpec,
  s: ValueSource,
  values: ReadonlyMap<string, string>,
  notes: DiscoveryNote[],
): Promise<Map<string, string>[] | undefined> {
  const { params } = paramsFor(c, op, values);
  for (const binding of c.bindings) {
    try {
      const raw = await send(c, op.name, params, binding);
      if (raw.status !== 200) {
        const ni = notImplemented(c, raw);
        notes.push({
          operation: op.name,
          binding,
          reason: ni ? `not implemented: ${ni}` : describe(c, raw),
        });
        continue;
      }
      const result = resultElement(c, op, binding, raw.body);
      if (typeof result === 'string') {
        notes.push({ operation: op.name, binding, reason: result });
        continue;
      }
      return readYields(c, result, s);
    } catch (e) {
      notes.push({ operation: op.name, binding, reason: `no answer: ${(e as Error).message}` });
    }
  }
  return undefined;
}

/** Discovers every value the sources can give. */
export async function discover(c: Ctx): Promise<DiscoveryNote[]> {
  const notes: DiscoveryNote[] = [];
  for (const s of c.model.sources) await runSource(c, s, notes);
  return notes;
}
