// Lexical conformance of one response element against the model: every field present in the
// document's lexical form (int, lowercase boolean, decimal with its exact scale, dateTime
// yyyy-MM-ddTHH:mm:ss), nil written as xsi:nil="true", list items named as the spec says.
// Elements the spec does not know are warnings, not failures.
import { XSI_NS, type XmlElement } from '../xml/index.js';
import type { ConformanceModel, FieldSpec, Findings, ValueSpec } from './model.js';

const LEXICAL: Record<'int' | 'boolean' | 'dateTime', [RegExp, string]> = {
  int: [/^-?\d{1,10}$/, 'int'],
  boolean: [/^(true|false)$/, 'lowercase boolean true or false'],
  dateTime: [/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'dateTime yyyy-MM-ddTHH:mm:ss'],
};

const isNil = (el: XmlElement) =>
  el.attributes[`{${XSI_NS}}nil`] === 'true' || el.attributes.nil === 'true';

export function checkValue(
  model: ConformanceModel,
  el: XmlElement,
  v: ValueSpec,
  ns: string,
  path: string,
  f: Findings,
): void {
  if (v.kind === 'complex') return checkFields(model, el, model.types[v.type] ?? [], ns, path, f);
  if (el.children.length > 0)
    f.failures.push(`${path}: expected text, got child element ${el.children[0]!.name}`);
  if (v.kind === 'string') return;
  const text = el.text;
  if (v.kind === 'decimal') {
    if (!new RegExp(`^-?\\d+\\.\\d{${v.scale}}$`).test(text))
      f.failures.push(
        `${path}: expected decimal with exactly ${v.scale} decimal places, got ${JSON.stringify(text)}`,
      );
    return;
  }
  const [re, what] = LEXICAL[v.kind];
  if (!re.test(text)) f.failures.push(`${path}: expected ${what}, got ${JSON.stringify(text)}`);
}

function checkField(
  model: ConformanceModel,
  el: XmlElement,
  field: FieldSpec,
  ns: string,
  path: string,
  f: Findings,
): void {
  if (el.nil || isNil(el)) {
    if (!field.nullable) f.failures.push(`${path}: nil, but the field is not nullable`);
    else if (!isNil(el)) f.failures.push(`${path}: nil must be written xsi:nil="true"`);
    else if (el.children.length > 0 || el.text.trim() !== '')
      f.failures.push(`${path}: a nil element must be empty`);
    return;
  }
  if (field.item === null) return checkValue(model, el, field.value, ns, path, f);
  let i = 0;
  for (const c of el.children) {
    if (c.name === field.item && c.ns === ns)
      checkValue(model, c, field.value, ns, `${path}/${field.item}[${i++}]`, f);
    else f.warnings.push(`${path}/${c.name}: element the spec does not know`);
  }
}

/** Checks the child elements of `el` against `fields`. */
export function checkFields(
  model: ConformanceModel,
  el: XmlElement,
  fields: readonly FieldSpec[],
  ns: string,
  path: string,
  f: Findings,
): void {
  const seen = new Set<string>();
  for (const c of el.children) {
    const field = c.ns === ns ? fields.find((x) => x.name === c.name) : undefined;
    if (!field) {
      f.warnings.push(
        `${path}/${c.name}: element the spec does not know${c.ns !== ns ? ` (namespace ${c.ns || 'none'})` : ''}`,
      );
      continue;
    }
    if (seen.has(field.name)) f.failures.push(`${path}/${field.name}: appears more than once`);
    seen.add(field.name);
    checkField(model, c, field, ns, `${path}/${field.name}`, f);
  }
  for (const field of fields) {
    if (seen.has(field.name) || field.optional) continue;
    f.failures.push(
      `${path}/${field.name}: missing element${field.nullable ? ' (a nil element is expected when there is no value)' : ''}`,
    );
  }
}

/** A result element: one complex value, or a list of items. */
export function checkResult(
  model: ConformanceModel,
  el: XmlElement,
  result: { value: ValueSpec; item: string | null },
  ns: string,
  path: string,
  f: Findings,
): void {
  checkField(
    model,
    el,
    { name: el.name, value: result.value, nullable: false, optional: false, item: result.item },
    ns,
    path,
    f,
  );
}
