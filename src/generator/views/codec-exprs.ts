// TypeScript expressions that read and write one value through the runtime. The codec views use
// these; templates only print them. `path` is the static `Type.Field` named in encode errors.
import type { IrField, IrParameter, IrValue } from '../ir/model.js';

const q = (s: string) => JSON.stringify(s);

export const encodeFn = (typeName: string) => `encode${typeName}`;
export const decodeFn = (typeName: string) => `decode${typeName}`;

/** XML text of one value held in `expr`. */
export function writeValue(v: IrValue, expr: string, path: string): string {
  if (v.kind === 'complex') return `${encodeFn(v.typeName)}(${expr})`;
  switch (v.scalar) {
    case 'int':
      return `writeInt(${expr}, ${q(path)})`;
    case 'string':
      return `escapeText(${expr})`;
    case 'boolean':
      return `writeBoolean(${expr})`;
    case 'decimal':
      return `writeDecimal(${expr}, ${v.scale}, ${q(path)})`;
    case 'dateTime':
      return `writeDateTime(${expr}, ${q(path)})`;
  }
}

/** A function `(item) => xml` for list items. */
function itemWriter(v: IrValue, path: string): string {
  return v.kind === 'complex' ? encodeFn(v.typeName) : `(i) => ${writeValue(v, 'i', path)}`;
}

/** The content of a field's element (the items, for a list). */
export function writeFieldContent(f: IrField, expr: string, path: string): string {
  return f.list
    ? `writeItems(${expr}, ${q(f.list.itemElement)}, ${itemWriter(f.value, path)})`
    : writeValue(f.value, expr, path);
}

const SCALAR_READERS = {
  int: 'readInt',
  string: 'readString',
  boolean: 'readBoolean',
  decimal: 'readDecimal',
  dateTime: 'readDateTime',
} as const;

/** Decodes one element `el` of document `d` holding `v` (not prepending its name: callers that need it do). */
function readValue(v: IrValue, el: string): string {
  if (v.kind === 'complex') return `${decodeFn(v.typeName)}(d, ${el}, ns)`;
  return v.scalar === 'decimal'
    ? `readDecimal(d, ${el}, ${v.scale})`
    : `${SCALAR_READERS[v.scalar]}(d, ${el})`;
}

/** An ElementDecoder `(d, el, ns) => value` for list items: a plain reference where no extra argument is needed. */
function itemReader(v: IrValue): string {
  if (v.kind === 'complex') return decodeFn(v.typeName);
  return v.scalar !== 'decimal' ? SCALAR_READERS[v.scalar] : `(d, x) => ${readValue(v, 'x')}`;
}

/** Decodes the field held by element `c`; complex values and lists prepend their names on error. */
export function readField(f: Pick<IrField, 'value' | 'list'>): string {
  if (f.list) return `readList(d, c, ns, ${q(f.list.itemElement)}, ${itemReader(f.value)})`;
  if (f.value.kind === 'complex') return `readComplex(d, c, ns, ${itemReader(f.value)})`;
  return readValue(f.value, 'c');
}

/** Decodes a result element `el` of one value (prepending its name) or a list of them. */
export function readResult(v: IrValue, itemElement: string | null, el: string): string {
  if (itemElement !== null) return `readList(d, ${el}, ns, ${q(itemElement)}, ${itemReader(v)})`;
  return `readComplex(d, ${el}, ns, ${itemReader(v)})`;
}

/** A statement writing a result value `r` to the XmlWriter `out`: one complex value, or its items. */
export function writeResult(v: IrValue, itemElement: string | null, path: string): string {
  return itemElement !== null
    ? `out.items(r, ${q(itemElement)}, ${itemWriter(v, path)});`
    : `out.write(${writeValue(v, 'r', path)});`;
}

/** An HTTP GET/POST parameter read from `form`. */
export function readParam(p: IrParameter): string {
  const fn = {
    int: 'paramInt',
    string: 'paramString',
    boolean: 'paramBoolean',
    decimal: 'paramDecimal',
    dateTime: 'paramDateTime',
  }[p.scalar];
  return `${fn}(form, ${q(p.name)})`;
}

/** An HTTP GET/POST parameter's text. */
export function writeParam(p: IrParameter, expr: string, path: string): string {
  return p.scalar === 'string'
    ? expr
    : writeValue({ kind: 'scalar', scalar: p.scalar, scale: null }, expr, path);
}
