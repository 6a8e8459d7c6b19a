// Every operation on every binding: status, exact content type, envelope, response and result
// elements and the lexical shape of every field. Reads run first in the catalogue's order, then
// the writes in the model's order, each write's own records feeding the writes after it.
import { parseSoapEnvelope, parseXml, type XmlElement } from '../xml/index.js';
import type { Binding } from '../transport/index.js';
import { bindingDef, isSoap, operationSpec, paramsFor, type Ctx } from './context.js';
import { readYields, resultElement, runSource, type DiscoveryNote } from './discover.js';
import type { OperationSpec } from './model.js';
import { Findings, resultOf, skipped, sourceName, type ConformanceResult } from './results.js';
import { checkResult } from './shape.js';
import { describe, notImplemented, send, type Raw } from './wire.js';

const child = (el: XmlElement, name: string, ns: string): XmlElement | undefined =>
  el.children.find((x) => x.name === name && x.ns === ns);

/** The response of one operation call, checked against the model. */
export function checkResponse(
  c: Ctx,
  op: OperationSpec,
  binding: Binding,
  raw: Raw,
  f: Findings,
): void {
  if (raw.status !== 200)
    return f.fail(`HTTP status ${raw.status}, expected 200: ${describe(c, raw)}`);
  const def = bindingDef(c, binding);
  const want = def.responseContentType;
  // An HTTP answer without a result has no body, and so no content type to hold to (ASMX sends none).
  const bodiless = def.kind !== 'soap' && op.result === null && raw.body.length === 0;
  if (raw.type !== want && !bodiless)
    f.fail(`content type ${JSON.stringify(raw.type)}, expected ${JSON.stringify(want)}`);
  if (def.kind !== 'soap') {
    // Where the document does not show the HTTP shape (note A), its root (or empty body) is our
    // decision; what the root holds is the type the document shows, values in its lexical forms.
    const gap = op.httpShapeShown ? null : c.model.checks.httpShapes.source;
    if (op.httpRoot === null || op.result === null) {
      if (raw.body.length > 0) f.fail(`a body for an operation without result`, gap);
      return;
    }
    let root: XmlElement;
    try {
      root = parseXml(raw.body);
    } catch (e) {
      return f.fail(`not well-formed XML: ${(e as Error).message}`);
    }
    if (root.name !== op.httpRoot || root.ns !== c.ns)
      return f.fail(`root element {${root.ns}}${root.name}, expected {${c.ns}}${op.httpRoot}`, gap);
    if (op.result.omittedWhenNull && root.nil && root.children.length === 0)
      return void f.warnings.push(`${root.name}: nil (a null result)`);
    const s = { model: c.model, ns: c.ns, http: true, f, gap: null };
    return checkResult(s, root, op.result, root.name);
  }
  let env;
  try {
    env = parseSoapEnvelope(raw.body);
  } catch (e) {
    return f.fail(`not a SOAP envelope: ${(e as Error).message}`);
  }
  if (env.version !== def.soapVersion)
    f.fail(`SOAP ${env.version} envelope on the ${binding} binding`);
  const response = env.payload;
  if (!response || response.name !== op.responseElement || response.ns !== c.ns)
    return f.fail(
      `Body holds ${response ? `{${response.ns}}${response.name}` : 'nothing'}, expected {${c.ns}}${op.responseElement}`,
    );
  const result = child(response, op.resultElement, c.ns);
  if (op.result === null) {
    if (result) f.fail(`${op.resultElement} present, but the operation returns nothing`);
    return;
  }
  if (!result && op.result.omittedWhenNull)
    return void f.warnings.push(
      `${op.responseElement}/${op.resultElement}: absent (a null result)`,
    );
  if (!result) return f.fail(`${op.responseElement}/${op.resultElement}: missing`);
  checkResult(
    { model: c.model, ns: c.ns, http: false, f, gap: null },
    result,
    op.result,
    op.resultElement,
  );
}

/**
 * The gaps whose decisions shape an operation's answer on a binding: so each has a row when it
 * passes too (the nil attribute on HTTP bindings wherever a nullable field can be sent).
 */
export function gapsOf(c: Ctx, op: OperationSpec, binding: Binding): Set<string> {
  const gaps = new Set<string>();
  const http = !isSoap(c, binding);
  if (http && !op.httpShapeShown) gaps.add(c.model.checks.httpShapes.source);
  const seen = new Set<string>();
  const visit = (type: string) => {
    if (seen.has(type)) return;
    seen.add(type);
    const typeGap = c.model.typeGaps[type];
    if (typeGap) gaps.add(typeGap);
    for (const field of c.model.types[type] ?? []) {
      if (field.gap) gaps.add(field.gap);
      if (field.nullable && http) gaps.add(c.model.checks.nilAttribute.source);
      if (field.value.kind === 'complex') visit(field.value.type);
    }
  };
  if (op.result?.value.kind === 'complex') visit(op.result.value.type);
  return gaps;
}

/** The document-level result, and at level evgen one result per gap decision involved. */
export function responseResults(
  c: Ctx,
  op: OperationSpec,
  binding: Binding,
  f: Findings,
): ConformanceResult[] {
  const at = { group: op.name, binding, check: 'response' };
  const out = [resultOf(c.model, 'responses', at, f.failures, f.warnings)];
  if (c.level === 'evgen')
    for (const gap of [...new Set([...gapsOf(c, op, binding), ...f.decided.keys()])].sort()) {
      const failures = f.decided.get(gap) ?? [];
      out.push({
        ...at,
        check: `response: ${gap}`,
        level: 'evgen',
        source: sourceName('evgen', gap),
        status: failures.length ? 'fail' : 'pass',
        failures,
        warnings: [],
      });
    }
  return out;
}

function skipReason(c: Ctx, op: OperationSpec): string | undefined {
  if (op.mutating && !c.o.allowWrites) return 'changes data: run with writes allowed';
  const { missing } = paramsFor(c, op);
  if (!missing.length) return undefined;
  const how = missing.map((name) => {
    const option = c.model.values.find((v) => v.name === name)?.option;
    return option ? `${name} (give --${option})` : name;
  });
  return `no value for ${how.join(', ')}`;
}

async function checkOperation(
  c: Ctx,
  op: OperationSpec,
  out: ConformanceResult[],
  notes: DiscoveryNote[],
): Promise<void> {
  const write = c.model.writes.find((w) => w.operation === op.name);
  for (const binding of c.bindings) {
    const at = { group: op.name, binding, check: 'response' };
    const skip = skipReason(c, op);
    if (skip) {
      out.push(skipped(c.model, 'responses', at, 'skip', skip));
      continue;
    }
    const f = new Findings();
    try {
      const raw = await send(c, op.name, paramsFor(c, op).params, binding);
      const ni = notImplemented(c, raw);
      if (ni) {
        out.push(skipped(c.model, 'responses', at, 'not-implemented', ni));
        continue;
      }
      checkResponse(c, op, binding, raw, f);
      if (raw.status === 200)
        c.answered.set(binding, (c.answered.get(binding) ?? new Set()).add(op.name));
      if (write && raw.status === 200) await afterWrite(c, op, binding, raw, notes);
    } catch (e) {
      f.fail(`no usable answer: ${(e as Error).message}`);
    }
    out.push(...responseResults(c, op, binding, f));
  }
}

/** Values the write made (its own result, then its follow-up sources) replace the known ones. */
async function afterWrite(
  c: Ctx,
  op: OperationSpec,
  binding: Binding,
  raw: Raw,
  notes: DiscoveryNote[],
): Promise<void> {
  const write = c.model.writes.find((w) => w.operation === op.name)!;
  const result = resultElement(c, op, binding, raw.body);
  if (typeof result !== 'string' && write.yields.length)
    for (const [name, v] of readYields(c, result, write)[0] ?? []) c.values.set(name, v);
  for (const s of write.then) await runSource(c, s, notes, true);
}

export async function runOperations(
  c: Ctx,
  out: ConformanceResult[],
  notes: DiscoveryNote[],
): Promise<void> {
  const writes = c.model.writes.map((w) => operationSpec(c, w.operation));
  const reads = c.model.operations.filter((op) => !writes.includes(op));
  for (const op of [...reads, ...writes])
    if (!c.o.only || c.o.only.includes(op.name)) await checkOperation(c, op, out, notes);
}
