// View of generated/src/help.ts: the service page, one page per operation (purpose, parameters,
// result shape, faults, gap decisions, test form, samples), the gaps register and the 404 page.
// Pages are HTML inside template literals, so every text is escaped here for HTML and then for
// the literal; the runtime fills in addresses, links and the samples.
import type {
  IrField,
  IrOperation,
  IrParameter,
  IrSpec,
  IrValue,
  ScalarKind,
} from '../ir/model.js';
import {
  operationSample,
  reachableTypes,
  resultTypeOf,
  sampleScalar,
  sampleTypes,
} from './help-samples.js';
import { faultCarriage } from './service-tables-view.js';
import { header, paramsTypeName, resultTypeName } from './ts-names.js';

const HTML: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Text for HTML inside a JS template literal. */
export const html = (s: string): string =>
  s
    .replace(/[&<>"']/g, (c) => HTML[c]!)
    .replace(/[`\\]/g, '\\$&')
    .replace(/\$\{/g, '\\${');

const SCALAR_NOTES: Record<ScalarKind, string> = {
  int: '32-bit integer',
  string: 'text',
  boolean: 'true or false',
  dateTime: 'yyyy-MM-ddTHH:mm:ss, no time zone',
  decimal: 'exact decimal',
};

const scalarType = (s: ScalarKind, scale: number | null) =>
  s === 'decimal' && scale !== null ? `decimal (${scale} places)` : s;

/** Where a name on the wire differs from the TypeScript name, the page says both. */
const tsNote = (x: { name: string; xmlName: string }) =>
  x.xmlName === x.name ? undefined : `TypeScript: ${x.name}.`;

/** A link to a type's section (anchored by its TypeScript name), named as the WSDL names it. */
const typeLink = (ir: IrSpec, name: string) =>
  `<a href="#type-${html(name)}">${html(ir.types.find((t) => t.name === name)!.xmlName)}</a>`;

/** A field's or result's type as HTML: scalars with their scale, complex types linked. */
const valueType = (ir: IrSpec, v: IrValue) =>
  v.kind === 'scalar' ? html(scalarType(v.scalar, v.scale)) : typeLink(ir, v.typeName);

function fieldRow(ir: IrSpec, f: IrField) {
  return {
    name: html(f.xmlName),
    type: f.list
      ? `list of ${valueType(ir, f.value)} (items &lt;${html(f.list.itemElement)}&gt;)`
      : valueType(ir, f.value),
    nullable: f.nullable ? 'yes' : 'no',
    notes: html(
      [tsNote(f), f.optional ? 'May be absent.' : undefined, ...f.docs]
        .filter((d) => d !== undefined)
        .join(' '),
    ),
  };
}

/** Gap ids named in spec texts as "gap <id>". */
const GAP_MENTION = /\bgap ([a-z0-9]+(?:-[a-z0-9]+)*)/g;

/** Decisions touching an operation: its HTTP shape, its texts, and every type its result reaches. */
export function operationGaps(ir: IrSpec, op: IrOperation): string[] {
  const ids = new Set<string>();
  if (op.httpShapeGap !== null) ids.add(op.httpShapeGap);
  for (const text of [...op.docs, ...op.parameters.flatMap((p) => p.docs)])
    for (const m of text.matchAll(GAP_MENTION)) ids.add(m[1]!);
  const root = resultTypeOf(op);
  for (const t of root ? reachableTypes(ir, [root]) : []) {
    if (t.gap !== null) ids.add(t.gap);
    for (const f of t.fields) if (f.gap !== null) ids.add(f.gap);
  }
  const known = new Set(ir.gaps.map((g) => g.id));
  for (const id of ids)
    if (!known.has(id)) throw new Error(`${op.provenance.file} ${op.name}: no gap "${id}"`);
  return [...ids];
}

/** The typed control of a parameter in the test form, starting at the sample value. */
function paramInput(p: IrParameter) {
  const sample = JSON.parse(sampleScalar(p.scalar, null)) as unknown;
  const attrs: Record<ScalarKind, string> = {
    int: `type="number" step="1" min="-2147483648" max="2147483647" inputmode="numeric" required value="${String(sample)}"`,
    string: 'type="text" spellcheck="false" value=""',
    boolean: '',
    dateTime: `type="datetime-local" step="1" required value="${String(sample)}"`,
    decimal: 'type="text" inputmode="decimal" required value=""',
  };
  return {
    name: html(p.name),
    scalar: p.scalar,
    select: p.scalar === 'boolean',
    attrs: attrs[p.scalar],
  };
}

function resultSummary(ir: IrSpec, op: IrOperation): string {
  const r = op.result;
  if (r.kind === 'none') return `No result: an empty &lt;${html(op.responseElement)}&gt;.`;
  const inner =
    r.kind === 'value'
      ? `one ${valueType(ir, r.value)}`
      : `a list of ${valueType(ir, r.value)} (items &lt;${html(r.itemElement)}&gt;)`;
  return `&lt;${html(op.resultElement)}&gt; holds ${inner}.`;
}

const sectionConst = (typeName: string) => `section${typeName}`;

/** One section per type a result reaches, shared by the pages of every operation reaching it. */
function typeSections(ir: IrSpec) {
  const roots = ir.operations.map(resultTypeOf).filter((t): t is string => t !== undefined);
  return reachableTypes(ir, roots).map((t) => ({
    const: sectionConst(t.name),
    anchor: html(t.name),
    name: html(t.xmlName === t.name ? t.name : `${t.xmlName} (TypeScript: ${t.name})`),
    doc: html(t.docs.join(' ')),
    fields: t.fields.map((f) => fieldRow(ir, f)),
    empty: t.fields.length === 0,
  }));
}

function operationView(ir: IrSpec, op: IrOperation) {
  const gaps = new Map(ir.gaps.map((g) => [g.id, g]));
  const root = resultTypeOf(op);
  return {
    name: op.name,
    method: op.method,
    purpose: html(op.docs[0] ?? ''),
    notes: op.docs.slice(1).map(html),
    mutating: op.mutating,
    params: op.parameters.map((p) => ({
      name: html(p.xmlName),
      type: html(p.scalar),
      typeNote: html(SCALAR_NOTES[p.scalar]),
      doc: html([tsNote(p), ...p.docs].filter((d) => d !== undefined).join(' ')),
      input: paramInput(p),
    })),
    hasParams: op.parameters.length > 0,
    result: resultSummary(ir, op),
    httpRoot: op.httpRoot === null ? null : html(op.httpRoot),
    types: (root ? reachableTypes(ir, [root]) : []).map((t) => ({ const: sectionConst(t.name) })),
    gaps: operationGaps(ir, op).map((id) => ({
      id: html(id),
      section: html(gaps.get(id)!.section),
      decision: html(gaps.get(id)!.decision),
    })),
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    ...operationSample(op),
  };
}

/** `APIKey` → `<API_KEY>`: the document's placeholders for the signed values. */
export const placeholder = (field: string) =>
  `<${field.replace(/([A-Z]+)([A-Z][a-z])|([a-z])([A-Z])/g, '$1$3_$2$4').toUpperCase()}>`;

/**
 * How to fill in each signed placeholder of the samples, beside them on every operation page: the
 * spec's own words for each value, then the window and the replay rule.
 */
function signingView(ir: IrSpec) {
  const { clockSkewSeconds, replayRefused } = ir.auth;
  return {
    values: ir.auth.fields
      .filter((f) => f.name !== 'Operation')
      .map((f) => ({ placeholder: html(placeholder(f.name)), doc: html(f.docs.join(' ')) })),
    window: html(
      `The server accepts a Timestamp within ±${clockSkewSeconds} s of its clock${replayRefused ? ' and refuses one it has already accepted for the same API key and operation: sign every request afresh' : ''}.`,
    ),
  };
}

export function helpView(ir: IrSpec) {
  const s = ir.service;
  return {
    header: header('spec/ (service, authentication, operations, types, errors, gaps)'),
    title: html(`${s.title} ${s.version}`),
    version: html(s.version),
    description: html(s.doc),
    endpointPath: html(s.endpointPath),
    placeholders: Object.fromEntries(ir.auth.fields.map((f) => [f.name, placeholder(f.name)])),
    // The Operation value is the operation's name (the document's rule 2), never a placeholder.
    placeholderList: html(
      ir.auth.fields
        .filter((f) => f.name !== 'Operation')
        .map((f) => placeholder(f.name))
        .join(', '),
    ),
    signing: signingView(ir),
    auth: {
      element: html(ir.auth.headerElement),
      fields: ir.auth.fields.map((f) => ({ name: html(f.name), doc: html(f.docs.join(' ')) })),
      httpHeaders: html(
        [
          ir.auth.httpHeaders.apiKey,
          ir.auth.httpHeaders.timestamp,
          ir.auth.httpHeaders.signature,
        ].join(', '),
      ),
      operationHeader: html(ir.auth.httpHeaders.operation),
      clockSkewSeconds: ir.auth.clockSkewSeconds,
    },
    bindings: ir.bindings.map((b) => ({
      id: b.id,
      title: html(b.title),
      request: html(
        `${b.method} ${b.kind === 'soap' ? '{endpoint}' : '{endpoint}/<Operation>'}${b.requestContentType ? `, ${b.requestContentType}` : ''}`,
      ),
      response: html(b.responseContentType),
    })),
    faults: ir.faults.map((f) => {
      const carriage = faultCarriage(f);
      return {
        code: html(f.code),
        doc: html(f.doc),
        soap11: html(f.soap11),
        soap12: html(f.soap12),
        ...carriage,
        http: html(carriage.http),
      };
    }),
    gaps: ir.gaps.map((g) => ({
      id: html(g.id),
      section: html(g.section),
      document: html(g.document),
      decision: html(g.decision),
      status: g.status,
    })),
    operations: ir.operations.map((op) => operationView(ir, op)),
    sampleTypes: sampleTypes(ir),
    typeSections: typeSections(ir),
  };
}
