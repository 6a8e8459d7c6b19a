// View of generated/src/codecs.ts: a straight-line encoder and decoder per complex type.
import type { IrField, IrSpec, IrType } from '../ir/model.js';
import { decodeFn, encodeFn, readField, writeFieldContent, type Imports } from './codec-exprs.js';
import { ImportSet } from './imports.js';
import { receivedName, typesDifferingWhenReceived } from './received.js';
import { docLines, header, localName, provenanceLine, tsFieldType } from './ts-names.js';

/**
 * How a field's element is written and read, by nullability: one partial per shape. A field a
 * server may leave out when it has no value is read like an optional one and written like a
 * required one. `tsType` is the type it is read as.
 */
export function fieldCodecView(
  f: Pick<IrField, 'name' | 'xmlName' | 'value' | 'list' | 'nullable' | 'optional'> &
    Partial<Pick<IrField, 'omittedWhenNull'>>,
  owner: string,
  tsType: string,
  imp: Imports,
) {
  const shape = f.optional ? 'optional' : f.nullable ? 'nullable' : 'required';
  const mayBeAbsent = f.optional || f.omittedWhenNull === true;
  const readShape = mayBeAbsent ? 'optional' : shape;
  // What the partials print themselves (templates/partials/decode-*.hbs).
  if (!mayBeAbsent) imp.internal.value('missingElement');
  if (readShape === 'required') imp.internal.value('nilNotAllowed');
  const local = localName(f.name);
  const entry = local === f.name ? f.name : `${f.name}: ${local}`;
  return {
    name: f.name,
    local,
    xmlName: f.xmlName,
    tsType,
    shape,
    decodePartial: `decode-${readShape}`,
    required: !mayBeAbsent,
    // Absent fields are left out of the decoded object rather than set to undefined.
    returnEntry: mayBeAbsent ? `...(${local} === undefined ? undefined : { ${entry} })` : entry,
    content: writeFieldContent(f, `v.${f.name}`, `${owner}.${f.name}`, imp),
    read: readField(f, imp),
  };
}

export type FieldCodecView = ReturnType<typeof fieldCodecView>;

/**
 * The encoder's statements, one `s +=` each: a run of required fields is one expression whose
 * literals join each end tag to the next start tag (`'</A><B>'`), and an optional or nullable
 * field is a statement of its own. Fewer, longer pieces encode faster than a statement a field: V8
 * flattens the string piece by piece before it leaves.
 */
export function encodeSteps(fields: readonly FieldCodecView[]) {
  const steps: (
    | { partial: 'encode-run'; pieces: { before: string; content: string }[]; after: string }
    | (FieldCodecView & { partial: string })
  )[] = [];
  let run: { before: string; content: string }[] | undefined;
  let closing = '';
  for (const f of fields) {
    if (f.shape !== 'required') {
      if (run) steps.push({ partial: 'encode-run', pieces: run, after: closing });
      run = undefined;
      steps.push({ ...f, partial: `encode-${f.shape}` });
      continue;
    }
    if (!run) {
      run = [];
      closing = '';
    }
    run.push({ before: `${closing}<${f.xmlName}>`, content: f.content });
    closing = `</${f.xmlName}>`;
  }
  if (run) steps.push({ partial: 'encode-run', pieces: run, after: closing });
  return steps;
}

function typeCodecView(t: IrType, imp: Imports, differing: ReadonlySet<string>) {
  imp.internal.value('NO_ELEMENT'); // decode-body
  imp.internal.value('wrongType'); // the encoder's own check of its value
  imp.runtime.type('XmlDocument');
  const read = (n: string) => (differing.has(n) ? receivedName(n) : n);
  const scope = { runtime: imp.runtime, complex: (n: string) => `T.${read(n)}` };
  const fields = t.fields.map((f) => fieldCodecView(f, t.name, tsFieldType(f, scope), imp));
  return {
    name: t.name,
    receivedName: read(t.name),
    encodeFn: encodeFn(t.name),
    decodeFn: decodeFn(t.name),
    docs: docLines([`Encoder and decoder of ${t.name}.`, provenanceLine(t.provenance)]),
    empty: t.fields.length === 0,
    fields,
    encodeSteps: encodeSteps(fields),
  };
}

export function codecsView(ir: IrSpec) {
  // Encoders and decoders are defined in this file: they need no import.
  const imp: Imports = {
    runtime: new ImportSet(),
    internal: new ImportSet(),
    codecs: new ImportSet(),
  };
  const differing = typesDifferingWhenReceived(ir);
  const types = ir.types.filter((t) => !t.abstract).map((t) => typeCodecView(t, imp, differing));
  return {
    header: header('spec/types/*.yaml'),
    conventions: docLines(ir.service.conventions),
    runtimeImport: imp.runtime.statement('@evgen/runtime'),
    internalImport: imp.internal.statement('@evgen/runtime/internal'),
    types,
  };
}
