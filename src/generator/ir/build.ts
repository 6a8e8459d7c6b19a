// Builds the IR from a validated raw spec. The spec has been cross-checked, so lookups here cannot
// fail; names and derived facts are computed once.
import { inheritedFields } from '../spec/cross-check.js';
import {
  CHECK_FAMILIES,
  type ConformanceFile,
  type ConformanceSource,
  type SpecField,
  type SpecOperation,
  type SpecType,
} from '../spec/format.js';
import type { RawSpec } from '../spec/load.js';
import type {
  IrConformance,
  IrConformanceSource,
  IrField,
  IrOperation,
  IrResult,
  IrSpec,
  IrType,
  IrValue,
  Provenance,
  ScalarKind,
} from './model.js';

const SCALARS: readonly string[] = ['int', 'string', 'boolean', 'decimal', 'dateTime'];

export function buildIr(spec: RawSpec): IrSpec {
  const typeFile = new Map<string, string>();
  const specTypes = new Map<string, SpecType>();
  for (const f of spec.typeFiles)
    for (const t of f.types) [typeFile.set(t.name, f.file), specTypes.set(t.name, t)];

  const fieldProvenance = (owner: SpecType, f: SpecField): Provenance => {
    // A field's provenance is the type that declares it, which may be a base type.
    let t: SpecType | undefined = owner;
    while (t && !(t.fields ?? []).includes(f) && !(t.overrides ?? []).includes(f))
      t = t.extends ? specTypes.get(t.extends) : undefined;
    const declaring = t ?? owner;
    return { file: typeFile.get(declaring.name)!, symbol: `${declaring.name}.${f.name}` };
  };

  const types: IrType[] = [...specTypes.values()]
    .map((t) => ({
      name: t.name,
      xmlName: t.name,
      docs: [t.doc],
      section: t.section,
      abstract: t.abstract ?? false,
      base: t.extends ?? null,
      wireOrderKnown: (t.fieldOrder ?? 'document') === 'document',
      fields: inheritedFields(t, specTypes).map((f) => buildField(f, fieldProvenance(t, f))),
      gap: t.gap ?? null,
      provenance: { file: typeFile.get(t.name)!, symbol: t.name },
    }))
    .sort((a, b) => cmp(a.name, b.name));

  const a = spec.authentication.authentication;
  const opFile = 'spec/operations.yaml';
  return {
    service: {
      name: spec.service.service.name,
      title: spec.service.service.title,
      version: spec.service.service.version,
      doc: spec.service.service.doc,
      endpointPath: spec.service.service.endpointPath,
      namespaceRule: spec.service.service.namespace.rule,
      wsdlServiceName: spec.service.service.wsdl.serviceName,
    },
    bindings: spec.service.bindings.map((b) => ({
      id: b.id,
      title: b.title,
      kind: b.kind,
      method: b.method,
      requestContentType: b.requestContentType ?? null,
      responseContentType: b.responseContentType,
    })),
    auth: {
      headerElement: a.header.element,
      fields: a.header.fields.map((f) => ({ name: f.name, docs: [f.doc] })),
      timestampFormat: a.header.fields.find((f) => f.format !== undefined)?.format ?? '',
      httpHeaders: {
        apiKey: a.httpHeaders.apiKey,
        timestamp: a.httpHeaders.timestamp,
        signature: a.httpHeaders.signature,
        operation: a.httpHeaders.operation,
      },
      clockSkewSeconds: a.window.clockSkewSeconds,
      provenance: { file: 'spec/authentication.yaml', symbol: a.header.element },
    },
    types,
    operations: spec.operations.operations.map((o) => buildOperation(o, opFile)),
    faults: spec.errors.faults.codes.map((c) => ({
      code: c.code,
      doc: c.doc,
      soap11: c.soap11,
      soap12: c.soap12,
      httpStatuses: c.http,
    })),
    faultDetailElement: spec.errors.faults.detailElement,
    soapFaultStatuses: {
      soap11: spec.errors.faults.soap11Status,
      soap12Sender: spec.errors.faults.soap12Status.sender,
      soap12Receiver: spec.errors.faults.soap12Status.receiver,
    },
    gaps: spec.gaps.gaps.map((g) => ({
      id: g.id,
      section: g.section,
      status: g.status,
      document: g.document,
      decision: g.decision,
    })),
    conformance: buildConformance(spec.conformance.conformance),
    sourceFiles: [
      ...[
        'service',
        'primitives',
        'authentication',
        'operations',
        'states',
        'errors',
        'gaps',
        'conformance',
      ].map((n) => `spec/${n}.yaml`),
      ...spec.typeFiles.map((f) => f.file),
    ].sort(cmp),
  };
}

function valueOf(type: string, scale: number | undefined): IrValue {
  return SCALARS.includes(type)
    ? { kind: 'scalar', scalar: type as ScalarKind, scale: scale ?? null }
    : { kind: 'complex', typeName: type };
}

function buildField(f: SpecField, provenance: Provenance): IrField {
  const isList = f.type === 'list';
  return {
    name: f.name,
    xmlName: f.name,
    value: isList ? valueOf(f.of!, undefined) : valueOf(f.type, f.scale),
    list: isList ? { itemElement: f.item! } : null,
    nullable: f.nullable ?? false,
    optional: f.optional ?? false,
    docs: [
      f.doc,
      f.note ? `Note: ${f.note}.` : undefined,
      f.gap ? `Not shown in the document; decision: gap ${f.gap} in spec/gaps.yaml.` : undefined,
    ].filter((d): d is string => d !== undefined),
    gap: f.gap ?? null,
    provenance,
  };
}

function buildOperation(o: SpecOperation, file: string): IrOperation {
  const r = o.result;
  const result: IrResult =
    r.kind === 'none'
      ? { kind: 'none' }
      : r.kind === 'type'
        ? { kind: 'type', typeName: r.type! }
        : { kind: 'list', value: valueOf(r.of!, undefined), itemElement: r.item! };
  return {
    name: o.name,
    method: lowerCamel(o.name),
    docs: [o.purpose, ...(o.rules ?? []), ...(o.effects ?? [])],
    parameters: o.parameters.map((p) => ({
      name: p.name,
      xmlName: p.name,
      scalar: p.type as ScalarKind,
      docs: p.doc ? [p.doc] : [],
      provenance: { file, symbol: `${o.name}.${p.name}` },
    })),
    result,
    responseElement: `${o.name}Response`,
    resultElement: `${o.name}Result`,
    httpRoot: o.http.root ?? null,
    httpShapeShown: o.http.shown,
    httpShapeGap: o.http.gap ?? null,
    mutating: o.mutating ?? false,
    paging: o.paging ? { skip: o.paging.skip, size: o.paging.size ?? null } : null,
    provenance: { file, symbol: o.name },
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

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
