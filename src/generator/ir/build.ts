// Builds the IR from a validated raw spec. The spec has been cross-checked, so lookups here cannot
// fail; names and derived facts are computed once.
import { inheritedFields } from '../spec/cross-check.js';
import {
  CHECK_FAMILIES,
  isPrimitive,
  type ConformanceFile,
  type ConformanceSource,
  type SpecField,
  type SpecOperation,
  type SpecType,
} from '../spec/format.js';
import { FIXED_FILE_NAMES, type RawSpec } from '../spec/load.js';
import { buildService } from './build-service.js';
import { provenance } from './provenance.js';
import type {
  IrConformance,
  IrConformanceSource,
  IrField,
  IrOperation,
  IrResult,
  IrSpec,
  IrTransition,
  IrType,
  IrValue,
  OmittableKind,
  Provenance,
  ScalarKind,
} from './model.js';

export function buildIr(spec: RawSpec): IrSpec {
  const specTypes = new Map<string, SpecType>();
  for (const f of spec.typeFiles) for (const t of f.types) specTypes.set(t.name, t);

  const fieldProvenance = (owner: SpecType, f: SpecField): Provenance => {
    // A field's provenance is the type that declares it, which may be a base type.
    let t: SpecType | undefined = owner;
    while (t && !(t.fields ?? []).includes(f) && !(t.overrides ?? []).includes(f))
      t = t.extends ? specTypes.get(t.extends) : undefined;
    return provenance(f.pos, `${(t ?? owner).name}.${f.name}`);
  };

  const service = buildService(spec);
  const omits = omitsWhenNull(service.service.omittedWhenNull?.values ?? []);
  const types: IrType[] = [...specTypes.values()]
    .map((t) => ({
      name: t.name,
      xmlName: t.xmlName ?? t.name,
      docs: [t.doc],
      section: t.section,
      abstract: t.abstract ?? false,
      base: t.extends ?? null,
      opaque: t.opaque ?? false,
      wireOrderKnown: (t.fieldOrder ?? 'document') === 'document',
      fields: inheritedFields(t, specTypes).map((f) => buildField(f, fieldProvenance(t, f), omits)),
      gap: t.gap ?? null,
      provenance: provenance(t.pos, t.name),
    }))
    .sort((a, b) => cmp(a.name, b.name));

  return {
    ...service,
    types,
    operations: spec.operations.operations.map((o) =>
      buildOperation(
        o,
        service.states.transitions.filter((t) => t.trigger === o.name),
        omits,
      ),
    ),
    conformance: buildConformance(spec.conformance.conformance),
    sourceFiles: [
      ...FIXED_FILE_NAMES.map((n) => `spec/${n}`),
      ...spec.typeFiles.map((f) => provenance({ file: f.file, line: 1, col: 1 }, '').file),
    ].sort(cmp),
  };
}

function valueOf(type: string, scale: number | undefined): IrValue {
  return isPrimitive(type)
    ? { kind: 'scalar', scalar: type, scale: scale ?? null }
    : { kind: 'complex', typeName: type };
}

/** Whether a server may leave out a value of this kind when it has none (nillable ones it never does). */
type Omits = (value: IrValue, list: boolean) => boolean;

function omitsWhenNull(kinds: readonly OmittableKind[]): Omits {
  return (value, list) =>
    kinds.includes(list ? 'list' : value.kind === 'complex' ? 'complex' : value.scalar);
}

function buildField(f: SpecField, prov: Provenance, omits: Omits): IrField {
  const isList = f.type === 'list';
  const value = isList ? valueOf(f.of!, undefined) : valueOf(f.type, f.scale);
  const nullable = f.nullable ?? false;
  return {
    name: f.name,
    xmlName: f.xmlName ?? f.name,
    value,
    list: isList ? { itemElement: f.item! } : null,
    nullable,
    alwaysNil: f.alwaysNil ?? false,
    optional: f.optional ?? false,
    omittedWhenNull: !nullable && omits(value, isList),
    docs: [
      f.doc,
      f.note ? `Note: ${f.note}.` : undefined,
      f.gap ? `Not shown in the document; decision: gap ${f.gap} in spec/gaps.yaml.` : undefined,
      f.alwaysNil ? 'Always sent as nil.' : undefined,
    ].filter((d): d is string => d !== undefined),
    gap: f.gap ?? null,
    provenance: prov,
  };
}

function buildOperation(o: SpecOperation, transitions: IrTransition[], omits: Omits): IrOperation {
  const r = o.result;
  const result: IrResult =
    r.kind === 'none'
      ? { kind: 'none' }
      : r.kind === 'type'
        ? { kind: 'value', value: valueOf(r.type!, r.scale) }
        : { kind: 'list', value: valueOf(r.of!, r.scale), itemElement: r.item! };
  return {
    name: o.name,
    method: lowerCamel(o.name),
    docs: [o.purpose, ...(o.rules ?? []), ...(o.effects ?? [])],
    parameters: o.parameters.map((p) => ({
      name: p.name,
      xmlName: p.xmlName ?? p.name,
      scalar: p.type as ScalarKind, // cross-checked: a primitive
      scale: p.scale ?? null,
      docs: p.doc ? [p.doc] : [],
      provenance: provenance(p.pos, `${o.name}.${p.name}`),
    })),
    result,
    resultOmittedWhenNull: result.kind !== 'none' && omits(result.value, result.kind === 'list'),
    resultText: r.text,
    responseElement: `${o.name}Response`,
    resultElement: `${o.name}Result`,
    httpRoot: o.http.root ?? null,
    httpShapeShown: o.http.shown,
    httpShapeGap: o.http.gap ?? null,
    mutating: o.mutating ?? false,
    paging: o.paging ? { skip: o.paging.skip, size: o.paging.size ?? null } : null,
    transitions,
    provenance: provenance(o.pos, o.name),
  };
}

const segments = (path: string | undefined) => (path ? path.split('/') : []);

function buildSource(s: {
  operation: string;
  items?: string;
  across?: string;
  yields?: ConformanceSource['yields'];
}): IrConformanceSource {
  return {
    operation: s.operation,
    items: segments(s.items),
    across: s.across ?? null,
    yields: (s.yields?.entries ?? []).map(([value, path]) => ({ value, path: segments(path) })),
  };
}

function buildConformance(c: ConformanceFile['conformance']): IrConformance {
  return {
    values: c.values.map((v) => ({
      name: v.name,
      parameters: v.parameters,
      fixed: v.fixed ?? null,
      none: v.none ?? null,
      option: v.option ?? null,
      writesOnly: v.writes ?? false,
    })),
    sources: c.sources.map(buildSource),
    writes: c.writes.map((w) => ({ ...buildSource(w), then: (w.then ?? []).map(buildSource) })),
    checks: Object.fromEntries(
      CHECK_FAMILIES.map((family) => {
        const k = c.checks[family];
        return [family, { level: k.level, source: k.source, fault: k.fault ?? null }];
      }),
    ),
    hostile: {
      bodyBytes: c.hostile.bodyBytes,
      depth: c.hostile.depth,
      concurrent: c.hostile.concurrent,
    },
  };
}

export function lowerCamel(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
