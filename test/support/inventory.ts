// Whether a spec still carries the interface document: every operation of the catalogue in its
// order with its parameters, every type the document describes with its fields and their types (in
// the document's order where the spec says the wire order is the document's). Names are compared
// on the wire (xmlName), so a TypeScript-only rename still carries the document. What the spec
// adds beyond the document (operations, types, fields, parameters) is the project's: not checked.
import type { IrField, IrSpec } from '../../src/generator/ir/model.js';
import { DOCUMENT_OPERATIONS, DOCUMENT_PARAMETERS, DOCUMENT_TYPES } from './document-catalogue.js';

/** `Name kind` pairs of a catalogue entry. */
const entries = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, ...kind] = s.split(' ');
      return { name: name!, kind: kind.join(' ') };
    });

/** Whether `order` holds `wanted` in the same relative order (other names between them). */
function inOrder(wanted: readonly string[], order: readonly string[]): boolean {
  let at = 0;
  for (const name of order) if (name === wanted[at]) at++;
  return at === wanted.length;
}

function kindOf(ir: IrSpec, f: IrField): string {
  const one =
    f.value.kind === 'scalar'
      ? f.value.scalar
      : ir.types.find((t) => t.name === (f.value as { typeName: string }).typeName)!.xmlName;
  return f.list ? `list of ${one}` : one;
}

/** Whether field `f` is what the document says: `kind` with `?` for nullable (see DOCUMENT_TYPES). */
function matches(ir: IrSpec, f: IrField, kind: string): boolean {
  const nullable = kind.endsWith('?');
  const k = nullable ? kind.slice(0, -1) : kind;
  if (nullable && !f.nullable) return false;
  if (k === '*') return true;
  if (k === 'list') return f.list !== null;
  return kindOf(ir, f) === k;
}

/** What of the document the spec does not carry, one line each; empty when it carries it all. */
export function inventoryProblems(ir: IrSpec): string[] {
  const out: string[] = [];
  const ops = ir.operations.map((o) => o.name);
  for (const name of DOCUMENT_OPERATIONS) {
    const op = ir.operations.find((o) => o.name === name);
    if (!op) {
      out.push(`operation ${name} is missing`);
      continue;
    }
    const params = entries(DOCUMENT_PARAMETERS[name]!);
    for (const p of params) {
      const found = op.parameters.find((x) => x.xmlName === p.name);
      if (!found) out.push(`${name}: parameter ${p.name} is missing`);
      else if (found.scalar !== p.kind)
        out.push(`${name}.${p.name}: ${found.scalar}, the document says ${p.kind}`);
    }
    const wire = op.parameters.map((x) => x.xmlName);
    if (
      !inOrder(
        params.map((p) => p.name).filter((p) => wire.includes(p)),
        wire,
      )
    )
      out.push(`${name}: parameters out of the document's order`);
  }
  if (
    !inOrder(
      DOCUMENT_OPERATIONS.filter((n) => ops.includes(n)),
      ops,
    )
  )
    out.push("operations out of the catalogue's order");
  for (const [typeName, list] of Object.entries(DOCUMENT_TYPES)) {
    const t = ir.types.find((x) => x.xmlName === typeName);
    if (!t) {
      out.push(`type ${typeName} is missing`);
      continue;
    }
    const fields = entries(list);
    for (const f of fields) {
      const found = t.fields.find((x) => x.xmlName === f.name);
      if (!found) out.push(`${typeName}.${f.name} is missing`);
      else if (!matches(ir, found, f.kind))
        out.push(
          `${typeName}.${f.name}: ${kindOf(ir, found)}${found.nullable ? '?' : ''}, the document says ${f.kind}`,
        );
    }
    const wire = t.fields.map((x) => x.xmlName);
    if (
      t.wireOrderKnown &&
      !inOrder(
        fields.map((f) => f.name).filter((n) => wire.includes(n)),
        wire,
      )
    )
      out.push(`${typeName}: fields out of the document's order`);
  }
  return out;
}
