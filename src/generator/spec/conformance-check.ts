// Cross-checks of spec/conformance.yaml: every parameter of every operation is taken by exactly
// one value, every value can become known, every source reads a read operation's result along
// paths that exist in the types.
import { didYouMean, type SourcePos } from './diagnostics.js';
import {
  CHECK_FAMILIES,
  primitiveNames,
  type ConformanceSource,
  type SpecOperation,
  type SpecType,
} from './format.js';
import { inheritedFields } from './cross-check.js';
import type { RawSpec } from './load.js';

type Report = (pos: SourcePos, message: string, hint?: string) => void;

/** Where a path segment leads: a complex type, a list's items, or a primitive value. */
type Step =
  | { readonly kind: 'type'; readonly type: string }
  | { readonly kind: 'list'; readonly item: string; readonly of: string }
  | { readonly kind: 'primitive' };

const stepOf = (type: string): Step =>
  primitiveNames.includes(type) ? { kind: 'primitive' } : { kind: 'type', type };

/** What to do with a parameter no value takes: add it to a value of the same name, else a new one. */
function takeAdvice(
  param: string,
  values: readonly { name: string; parameters: string[]; pos: SourcePos }[],
): string {
  const same = (s: string) => s.toLowerCase() === param.toLowerCase();
  const v = values.find((x) => same(x.name) || x.parameters.some(same));
  return v
    ? `add ${param} to the parameters of the value "${v.name}" at ${v.pos.file}:${v.pos.line}: parameters: [${[...v.parameters, param].join(', ')}]`
    : `add { name: ${param}, parameters: [${param}], option: ... } to conformance.values`;
}

export function checkConformanceSpec(
  spec: RawSpec,
  types: ReadonlyMap<string, SpecType>,
  report: Report,
): void {
  const c = spec.conformance.conformance;
  const ops = new Map(spec.operations.operations.map((o) => [o.name, o]));
  const values = new Map(c.values.map((v) => [v.name, v]));
  const taken = new Map<string, string>();
  for (const v of c.values) {
    for (const p of v.parameters) {
      const first = taken.get(p);
      if (first) report(v.pos, `parameter "${p}" is taken by both "${first}" and "${v.name}"`);
      taken.set(p, v.name);
    }
  }
  // Values take parameters by their names on the wire: a TypeScript-only rename keeps its value.
  const wire = (p: { name: string; xmlName?: string | undefined }) => p.xmlName ?? p.name;
  const allParams = new Set(spec.operations.operations.flatMap((o) => o.parameters.map(wire)));
  const byTsName = new Map<string, { value: string | undefined; op: string }>();
  for (const op of spec.operations.operations)
    for (const p of op.parameters) {
      const value = taken.get(wire(p));
      if (value === undefined)
        report(
          p.pos,
          `parameter "${wire(p)}" of "${op.name}" is taken by no value of spec/conformance.yaml`,
          takeAdvice(wire(p), c.values),
        );
      // The checker passes values to the generated codecs by TypeScript name.
      const other = byTsName.get(p.name);
      if (other && other.value !== value && value !== undefined && other.value !== undefined)
        report(
          p.pos,
          `parameter ${p.name} of "${op.name}" takes value "${value}", but ${p.name} of "${other.op}" takes "${other.value}": the TypeScript name must mean one value`,
        );
      else byTsName.set(p.name, { value, op: op.name });
    }
  for (const v of c.values)
    for (const p of v.parameters)
      if (!allParams.has(p))
        report(v.pos, `value "${v.name}" names no parameter "${p}"`, didYouMean(p, allParams));

  const step = (from: Step, segment: string, pos: SourcePos, where: string): Step | undefined => {
    if (from.kind === 'list') {
      if (segment === from.item) return stepOf(from.of);
      return void report(pos, `${where}: "${segment}" is not the list item "${from.item}"`);
    }
    if (from.kind === 'primitive')
      return void report(pos, `${where}: "${segment}" below a primitive`);
    // Paths are element names: a field's wire name.
    const fields = inheritedFields(types.get(from.type)!, types);
    const f = fields.find((x) => (x.xmlName ?? x.name) === segment);
    if (!f)
      return void report(
        pos,
        `${where}: type "${from.type}" has no element "${segment}"`,
        didYouMean(
          segment,
          fields.map((x) => x.xmlName ?? x.name),
        ),
      );
    return f.type === 'list' ? { kind: 'list', item: f.item!, of: f.of! } : stepOf(f.type);
  };
  const walk = (
    from: Step | undefined,
    path: string | undefined,
    pos: SourcePos,
    where: string,
  ) => {
    for (const segment of path ? path.split('/') : [])
      if (from) from = step(from, segment, pos, where);
    return from;
  };
  const yielded = new Set<string>();
  const checkSource = (
    s:
      | ConformanceSource
      | { operation: string; pos: SourcePos; items?: string; yields?: ConformanceSource['yields'] },
    write: boolean,
    afterWrite = false,
  ) => {
    const op: SpecOperation | undefined = ops.get(s.operation);
    if (!op)
      return report(
        s.pos,
        `unknown operation "${s.operation}"`,
        didYouMean(s.operation, ops.keys()),
      );
    if ((op.mutating ?? false) !== write)
      return report(
        s.pos,
        write
          ? `"${op.name}" changes no data: list it under sources`
          : `"${op.name}" changes data: list it under writes`,
      );
    if ('across' in s && s.across !== undefined && !values.has(s.across))
      report(s.pos, `unknown value "${s.across}"`, didYouMean(s.across, values.keys()));
    if (!s.yields) return;
    const r = op.result;
    const start: Step | undefined =
      r.kind === 'type'
        ? { kind: 'type', type: r.type! }
        : r.kind === 'list'
          ? { kind: 'list', item: r.item!, of: r.of! }
          : undefined;
    if (!start) return report(s.pos, `"${op.name}" has no result to read values from`);
    const item = walk(start, s.items, s.pos, `${op.name} items`);
    for (const [name, path] of s.yields.entries) {
      const v = values.get(name);
      if (!v) report(s.yields.pos, `unknown value "${name}"`, didYouMean(name, values.keys()));
      else if (v.fixed !== undefined)
        report(s.yields.pos, `value "${name}" is fixed: nothing yields it`);
      else if (v.writes && !write && !afterWrite)
        report(s.yields.pos, `value "${name}" comes only from writes`);
      yielded.add(name);
      const end = walk(item, path, s.yields.pos, `${op.name} ${name}`);
      if (end && end.kind !== 'primitive')
        report(s.yields.pos, `${op.name} ${name}: "${path}" does not end at a primitive field`);
    }
  };
  c.sources.forEach((s) => checkSource(s, false));
  const written = new Set<string>();
  for (const w of c.writes) {
    checkSource(w, true);
    written.add(w.operation);
    (w.then ?? []).forEach((s) => checkSource(s, false, true));
  }
  for (const op of spec.operations.operations)
    if (op.mutating && !written.has(op.name))
      report(op.pos, `"${op.name}" changes data but is not listed under conformance.writes`);
  const gaps = new Set(spec.gaps.gaps.map((g) => g.id));
  const faults = new Set(spec.errors.faults.codes.map((f) => f.code));
  for (const family of CHECK_FAMILIES) {
    const k = c.checks[family];
    if (k.level === 'evgen' && !gaps.has(k.source) && !k.source.startsWith('spec/'))
      report(
        k.pos,
        `check family "${family}" is evgen-level: its source must be a gap id or a spec/ file`,
        didYouMean(k.source, gaps),
      );
    if (k.fault !== undefined && !faults.has(k.fault))
      report(k.pos, `unknown fault code "${k.fault}"`, didYouMean(k.fault, faults));
  }
  for (const v of c.values)
    if (v.fixed === undefined && v.option === undefined && !yielded.has(v.name))
      report(
        v.pos,
        `value "${v.name}" is neither fixed, nor set by an option, nor yielded by a source`,
      );
}
