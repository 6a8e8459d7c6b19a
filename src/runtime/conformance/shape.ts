// Lexical conformance of one response element against the model: every field present in the
// document's lexical form (int, lowercase boolean, decimal with its exact scale, dateTime
// yyyy-MM-ddTHH:mm:ss), nil written as the binding's nil attribute with nothing inside, list items
// named as the spec says. A failure below a field or type whose shape is a gap decision is
// recorded against the innermost such gap (evgen level): the decision it breaks. Elements the spec
// does not know are warnings, except inside a type whose fields are a gap decision: that decision
// is exactly those fields, so another element breaks it.
import { XSI_NS, type XmlElement } from '../xml/index.js';
import type { ConformanceModel, FieldSpec, ValueSpec } from './model.js';
import type { Findings } from './results.js';

export interface ShapeCtx {
  readonly model: ConformanceModel;
  readonly ns: string;
  /** HTTP bindings: the document allows "a nil attribute"; xsi:nil there is our decision. */
  readonly http: boolean;
  readonly f: Findings;
  /** The gap deciding the shape being checked, or null where the document shows it. */
  readonly gap: string | null;
  /** The gap deciding the fields of the type being checked (its exact field list), or null. */
  readonly fieldsGap?: string | null;
}

const LEXICAL: Record<'int' | 'boolean' | 'dateTime', [RegExp, string]> = {
  int: [/^-?\d{1,10}$/, 'int'],
  boolean: [/^(true|false)$/, 'lowercase boolean true or false'],
  dateTime: [/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'dateTime yyyy-MM-ddTHH:mm:ss'],
};

const xsiNil = (el: XmlElement) => el.attributes[`{${XSI_NS}}nil`];

export function checkValue(s: ShapeCtx, el: XmlElement, v: ValueSpec, path: string): void {
  if (v.kind === 'complex') {
    // Content neither shown nor decided (Entity Framework's EntityKey in a reference element).
    if (s.model.opaqueTypes.includes(v.type)) return;
    const fieldsGap = s.model.typeGaps[v.type] ?? null;
    const gap = fieldsGap ?? s.gap;
    return checkFields({ ...s, gap, fieldsGap }, el, s.model.types[v.type] ?? [], path);
  }
  if (el.children.length > 0)
    s.f.fail(`${path}: expected text, got child element ${el.children[0]!.name}`, s.gap);
  if (v.kind === 'string') return;
  const text = el.text;
  if (v.kind === 'decimal') {
    if (!new RegExp(`^-?\\d+\\.\\d{${v.scale}}$`).test(text))
      s.f.fail(
        `${path}: expected decimal with exactly ${v.scale} decimal places, got ${JSON.stringify(text)}`,
        s.gap,
      );
    return;
  }
  const [re, what] = LEXICAL[v.kind];
  if (!re.test(text)) s.f.fail(`${path}: expected ${what}, got ${JSON.stringify(text)}`, s.gap);
}

function checkNil(s: ShapeCtx, el: XmlElement, field: FieldSpec, path: string): void {
  if (!field.nullable) s.f.fail(`${path}: nil, but the field is not nullable`, s.gap);
  if (xsiNil(el) !== 'true') {
    if (!s.http || el.attributes.nil !== 'true')
      s.f.fail(`${path}: nil must be written xsi:nil="true"`, s.gap);
    else
      s.f.fail(
        `${path}: nil written nil="true", expected xsi:nil="true"`,
        s.model.checks.nilAttribute.source,
      );
  }
  if (el.children.length > 0 || el.text.trim() !== '')
    s.f.fail(
      `${path}: a nil element must be empty, got ${JSON.stringify(el.text.trim() || el.children[0]!.name)}`,
      s.gap,
    );
}

function checkField(s: ShapeCtx, el: XmlElement, field: FieldSpec, path: string): void {
  const at = field.gap !== null ? { ...s, gap: field.gap } : s;
  if (el.nil || xsiNil(el) !== undefined || (s.http && el.attributes.nil !== undefined))
    return checkNil(at, el, field, path);
  if (field.alwaysNil)
    return at.f.fail(`${path}: always sent as nil, got ${JSON.stringify(el.text)}`, at.gap);
  if (field.item === null) return checkValue(at, el, field.value, path);
  let i = 0;
  for (const c of el.children) {
    if (c.name === field.item && c.ns === s.ns)
      checkValue(at, c, field.value, `${path}/${field.item}[${i++}]`);
    else at.f.fail(`${path}/${c.name}: list item named ${c.name}, expected ${field.item}`, at.gap);
  }
}

/** Checks the child elements of `el` against `fields`. */
export function checkFields(
  s: ShapeCtx,
  el: XmlElement,
  fields: readonly FieldSpec[],
  path: string,
): void {
  const seen = new Set<string>();
  for (const c of el.children) {
    const field = c.ns === s.ns ? fields.find((x) => x.name === c.name) : undefined;
    if (!field) {
      const what = `${path}/${c.name}: element the spec does not know${c.ns !== s.ns ? ` (namespace ${c.ns || 'none'})` : ''}`;
      if (s.fieldsGap) s.f.fail(what, s.fieldsGap);
      else s.f.warnings.push(what);
      continue;
    }
    if (seen.has(field.name)) s.f.fail(`${path}/${field.name}: appears more than once`, s.gap);
    seen.add(field.name);
    checkField(s, c, field, `${path}/${field.name}`);
  }
  for (const field of fields) {
    if (seen.has(field.name) || field.optional) continue;
    if (field.omittedWhenNull) {
      s.f.warnings.push(`${path}/${field.name}: absent (a value the server does not have)`);
      continue;
    }
    s.f.fail(
      `${path}/${field.name}: missing element${field.nullable ? ' (a nil element is expected when there is no value)' : ''}`,
      s.gap ?? field.gap,
    );
  }
}

/** A result element: one complex value, or a list of items. */
export function checkResult(
  s: ShapeCtx,
  el: XmlElement,
  result: { value: ValueSpec; item: string | null },
  path: string,
): void {
  checkField(
    s,
    el,
    {
      name: el.name,
      value: result.value,
      nullable: false,
      optional: false,
      item: result.item,
      gap: null,
    },
    path,
  );
}
