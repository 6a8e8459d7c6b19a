// View of generated/src/codecs.ts: a straight-line encoder and decoder per complex type.
import type { IrField, IrSpec, IrType } from '../ir/model.js';
import { decodeFn, encodeFn, readField, writeFieldContent } from './codec-exprs.js';
import { docLines, header, provenanceLine, tsFieldType } from './ts-names.js';

/** How a field's element is written and read, by nullability: one partial per shape. */
export function fieldCodecView(
  f: Pick<IrField, 'name' | 'xmlName' | 'value' | 'list' | 'nullable' | 'optional'>,
  owner: string,
  tsType: string,
) {
  const shape = f.optional ? 'optional' : f.nullable ? 'nullable' : 'required';
  return {
    name: f.name,
    xmlName: f.xmlName,
    tsType,
    encodePartial: `encode-${shape}`,
    decodePartial: `decode-${shape}`,
    required: !f.optional,
    // Absent optional fields are left out of the decoded object rather than set to undefined.
    returnEntry: f.optional ? `...(${f.name} === undefined ? undefined : { ${f.name} })` : f.name,
    content: writeFieldContent(f as IrField, `v.${f.name}`, `${owner}.${f.name}`),
    read: readField(f),
  };
}

function typeCodecView(t: IrType) {
  return {
    name: t.name,
    encodeFn: encodeFn(t.name),
    decodeFn: decodeFn(t.name),
    docs: docLines([`Encoder and decoder of ${t.name}.`, provenanceLine(t.provenance)]),
    empty: t.fields.length === 0,
    fields: t.fields.map((f) => fieldCodecView(f, t.name, tsFieldType(f))),
  };
}

export function codecsView(ir: IrSpec) {
  return {
    header: header('spec/types/*.yaml'),
    typeNames: ir.types.map((t) => t.name),
    types: ir.types.filter((t) => !t.abstract).map(typeCodecView),
  };
}
