// TypeScript expressions that read and write one value through the runtime. The codec views use
// these; templates only print them. `path` is the static `Type.Field` named in encode errors.
// Every name an expression prints is recorded in `imp`, so import lists follow use.
import type { IrField, IrParameter, IrValue } from '../ir/model.js';
import type { ImportSet } from './imports.js';
import { PRIMITIVE_CODECS } from './primitives.js';

const q = (s: string) => JSON.stringify(s);

export const encodeFn = (typeName: string) => `encode${typeName}`;
export const decodeFn = (typeName: string) => `decode${typeName}`;

/**
 * Where the names an expression uses come from: @evgen/runtime (the types a generated package's
 * declarations name), @evgen/runtime/internal (the functions only generated code calls), and the
 * codecs module.
 */
export interface Imports {
  readonly runtime: ImportSet;
  readonly internal: ImportSet;
  /** Encoders and decoders of complex types (recorded for operations.ts; codecs.ts defines them). */
  readonly codecs: ImportSet;
}

const scaleArg = (v: IrValue & { kind: 'scalar' }) =>
  PRIMITIVE_CODECS[v.scalar].scaled ? `${v.scale ?? 0}, ` : '';

/**
 * XML text of one value held in `expr`; anything the spec does not allow is refused, naming
 * `path`. A complex value's encoder checks it is an object itself, so calls stay direct.
 */
export function writeValue(v: IrValue, expr: string, path: string, imp: Imports): string {
  if (v.kind === 'complex') return `${imp.codecs.value(encodeFn(v.typeName))}(${expr}, ${q(path)})`;
  return `${imp.internal.value(PRIMITIVE_CODECS[v.scalar].write)}(${expr}, ${scaleArg(v)}${q(path)})`;
}

/** A writer `(item, path) => xml` for list items: a plain reference where no scale is needed. */
function itemWriter(v: IrValue, imp: Imports): string {
  if (v.kind === 'complex') return imp.codecs.value(encodeFn(v.typeName));
  const c = PRIMITIVE_CODECS[v.scalar];
  return c.scaled
    ? `(i, p) => ${imp.internal.value(c.write)}(i, ${v.scale ?? 0}, p)`
    : imp.internal.value(c.write);
}

/** The content of a field's element (the items, for a list). */
export function writeFieldContent(
  f: Pick<IrField, 'value' | 'list'>,
  expr: string,
  path: string,
  imp: Imports,
): string {
  return f.list
    ? `${imp.internal.value('writeItems')}(${expr}, ${q(f.list.itemElement)}, ${itemWriter(f.value, imp)}, ${q(path)})`
    : writeValue(f.value, expr, path, imp);
}

/** Decodes one element `el` of document `d` holding `v` (not prepending its name: callers that need it do). */
function readValue(v: IrValue, el: string, imp: Imports): string {
  if (v.kind === 'complex') return `${imp.codecs.value(decodeFn(v.typeName))}(d, ${el}, ns)`;
  const c = PRIMITIVE_CODECS[v.scalar];
  return `${imp.internal.value(c.read)}(d, ${el}${c.scaled ? `, ${v.scale ?? 0}` : ''})`;
}

/** An ElementDecoder `(d, el, ns) => value` for list items: a plain reference where no extra argument is needed. */
function itemReader(v: IrValue, imp: Imports): string {
  if (v.kind === 'complex') return imp.codecs.value(decodeFn(v.typeName));
  const c = PRIMITIVE_CODECS[v.scalar];
  return c.scaled ? `(d, x) => ${readValue(v, 'x', imp)}` : imp.internal.value(c.read);
}

/** Decodes the field held by element `c`; complex values and lists prepend their names on error. */
export function readField(f: Pick<IrField, 'value' | 'list'>, imp: Imports): string {
  if (f.list)
    return `${imp.internal.value('readList')}(d, c, ns, ${q(f.list.itemElement)}, ${itemReader(f.value, imp)})`;
  if (f.value.kind === 'complex')
    return `${imp.internal.value('readComplex')}(d, c, ns, ${itemReader(f.value, imp)})`;
  return readValue(f.value, 'c', imp);
}

/** Decodes a result element `el` of one value (prepending its name) or a list of them. */
export function readResult(
  v: IrValue,
  itemElement: string | null,
  el: string,
  imp: Imports,
): string {
  if (itemElement !== null)
    return `${imp.internal.value('readList')}(d, ${el}, ns, ${q(itemElement)}, ${itemReader(v, imp)})`;
  return `${imp.internal.value('readComplex')}(d, ${el}, ns, ${itemReader(v, imp)})`;
}

/**
 * A statement writing a result value `r` to the XmlWriter `out`: one complex value, or its items.
 * A complex result goes through writeKept: a handler answering from values it keeps frozen (the
 * reference service's read cache) has each one's XML made once, and its bytes copied after.
 */
export function writeResult(
  v: IrValue,
  itemElement: string | null,
  path: string,
  imp: Imports,
): string {
  if (itemElement !== null)
    return `out.items(r, ${q(itemElement)}, ${itemWriter(v, imp)}, ${q(path)});`;
  if (v.kind === 'complex')
    return `${imp.internal.value('writeKept')}(out, r, ${imp.codecs.value(encodeFn(v.typeName))}, ${q(path)});`;
  return `out.write(${writeValue(v, 'r', path, imp)});`;
}

/** An HTTP GET/POST parameter read from `form`. */
export function readParam(p: IrParameter, imp: Imports): string {
  const c = PRIMITIVE_CODECS[p.scalar];
  return `${imp.internal.value(c.readParam)}(form, ${q(p.xmlName)}${c.scaled ? `, ${p.scale ?? 0}` : ''})`;
}

/** An HTTP GET/POST parameter's text; anything the spec does not allow is refused. */
export function writeParam(p: IrParameter, expr: string, path: string, imp: Imports): string {
  const c = PRIMITIVE_CODECS[p.scalar];
  return `${imp.internal.value(c.writeParam)}(${expr}, ${c.scaled ? `${p.scale ?? 0}, ` : ''}${q(path)})`;
}
