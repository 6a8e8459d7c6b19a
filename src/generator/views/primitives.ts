// How each spec primitive is spelled in TypeScript and which @evgen/runtime functions read and
// write it: the one table of this, keyed by the primitives of spec/format.ts (the compiler
// refuses a primitive without its entry).
import type { ScalarKind } from '../ir/model.js';

export interface PrimitiveCodec {
  /** The TypeScript type of a value. */
  readonly ts: string;
  /** Set when `ts` is a type of @evgen/runtime that generated files import. */
  readonly runtimeType: boolean;
  /** Writer `(value, [scale,] path) => text`. */
  readonly write: string;
  /** Reader `(d, el[, scale]) => value`. */
  readonly read: string;
  /** HTTP GET/POST parameter reader `(form, name[, scale]) => value`. */
  readonly readParam: string;
  /** HTTP GET/POST parameter writer `(value, [scale,] path) => text`. */
  readonly writeParam: string;
  /** Reader and writers take the value's scale. */
  readonly scaled: boolean;
}

export const PRIMITIVE_CODECS: Readonly<Record<ScalarKind, PrimitiveCodec>> = {
  int: {
    ts: 'number',
    runtimeType: false,
    write: 'writeInt',
    read: 'readInt',
    readParam: 'paramInt',
    writeParam: 'writeInt',
    scaled: false,
  },
  string: {
    ts: 'string',
    runtimeType: false,
    write: 'writeString',
    read: 'readString',
    readParam: 'paramString',
    writeParam: 'checkString', // URL-encoded by URLSearchParams, not XML-escaped
    scaled: false,
  },
  boolean: {
    ts: 'boolean',
    runtimeType: false,
    write: 'writeBoolean',
    read: 'readBoolean',
    readParam: 'paramBoolean',
    writeParam: 'writeBoolean',
    scaled: false,
  },
  dateTime: {
    ts: 'LocalDateTime',
    runtimeType: true,
    write: 'writeDateTime',
    read: 'readDateTime',
    readParam: 'paramDateTime',
    writeParam: 'writeDateTime',
    scaled: false,
  },
  decimal: {
    ts: 'Decimal',
    runtimeType: true,
    write: 'writeDecimal',
    read: 'readDecimal',
    readParam: 'paramDecimal',
    writeParam: 'writeDecimal',
    scaled: true,
  },
};
