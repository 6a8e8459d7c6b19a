// A small schema language for the spec's YAML, checked on the yaml library's nodes so that every
// error keeps the file:line:col of the offending node. Checkers return the plain value, or
// undefined after reporting a diagnostic; they never throw. Each checker also says what it accepts
// as JSON Schema (`schema`): the spec files' editor schema and the spec-format reference are
// written from it, so the format is written once.
import { isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import { didYouMean, type Diagnostic, type SourcePos } from './diagnostics.js';
import { NAME_SCHEMA, nameProblem } from './names.js';

export interface CheckContext {
  readonly file: string;
  readonly lines: LineCounter;
  readonly report: (d: Diagnostic) => void;
}

/** A JSON Schema (draft 2020-12) fragment. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export type Checker<T> = ((
  node: unknown,
  ctx: CheckContext,
  parentPos: SourcePos,
) => T | undefined) & { readonly schema: JsonSchema };

/** A checker with the JSON Schema of what it accepts (keys and types; cross-checks come later). */
export const checker = <T>(
  schema: JsonSchema,
  check: (node: unknown, ctx: CheckContext, parentPos: SourcePos) => T | undefined,
): Checker<T> => Object.assign(check, { schema });

export function posOf(node: unknown, ctx: CheckContext, fallback: SourcePos): SourcePos {
  const range = (node as Node | null)?.range;
  if (!range) return fallback;
  const { line, col } = ctx.lines.linePos(range[0]);
  return { file: ctx.file, line, col };
}

/** A value carrying where it was written, for cross-checks and provenance. */
export type Located<T> = T & { readonly pos: SourcePos };

function scalar<T>(what: string, schema: JsonSchema, test: (v: unknown) => v is T): Checker<T> {
  return checker(schema, (node, ctx, parentPos) => {
    if (isScalar(node) && test(node.value)) return node.value;
    const got = isScalar(node)
      ? JSON.stringify(node.value)
      : isMap(node)
        ? 'a mapping'
        : isSeq(node)
          ? 'a list'
          : 'nothing';
    ctx.report({ pos: posOf(node, ctx, parentPos), message: `expected ${what}, got ${got}` });
    return undefined;
  });
}

export const str = scalar(
  'a string',
  { type: 'string', minLength: 1 },
  (v): v is string => typeof v === 'string' && v.length > 0,
);
/** A string that may be empty (fixed test values such as an empty search query). */
export const text = scalar(
  'a string',
  { type: 'string' },
  (v): v is string => typeof v === 'string',
);
export const bool = scalar(
  'true or false',
  { type: 'boolean' },
  (v): v is boolean => typeof v === 'boolean',
);
export const int = scalar(
  'an integer',
  { type: 'integer' },
  (v): v is number => typeof v === 'number' && Number.isInteger(v),
);

/** A name that becomes an XML name and a TypeScript identifier (see names.ts). */
export const name: Checker<string> = checker(NAME_SCHEMA, (node, ctx, parentPos) => {
  const v = str(node, ctx, parentPos);
  if (v === undefined) return undefined;
  const problem = nameProblem(v);
  if (problem === undefined) return v;
  ctx.report({
    pos: posOf(node, ctx, parentPos),
    message: `bad name ${JSON.stringify(v)}: ${problem}`,
  });
  return undefined;
});

export function oneOf<T extends string>(...allowed: T[]): Checker<T> {
  return checker({ enum: allowed }, (node, ctx, parentPos) => {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v === 'string' && (allowed as string[]).includes(v)) return v as T;
    ctx.report({
      pos: posOf(node, ctx, parentPos),
      message: `expected one of ${allowed.join(', ')}, got ${JSON.stringify(v ?? null)}`,
      hint: typeof v === 'string' ? didYouMean(v, allowed) : undefined,
    });
    return undefined;
  });
}

export function list<T>(item: Checker<T>): Checker<T[]> {
  return checker({ type: 'array', items: item.schema }, (node, ctx, parentPos) => {
    if (!isSeq(node)) {
      ctx.report({ pos: posOf(node, ctx, parentPos), message: 'expected a list' });
      return undefined;
    }
    const pos = posOf(node, ctx, parentPos);
    const out: T[] = [];
    for (const child of node.items) {
      const v = item(child, ctx, pos);
      if (v !== undefined) out.push(v);
    }
    return out;
  });
}

/** A key of a mapping: its checker, whether it must be there, and what it means (for the docs). */
type Field<T> = {
  readonly check: Checker<T>;
  readonly required: boolean;
  readonly doc: string | undefined;
};
export const req = <T>(check: Checker<T>, doc?: string): Field<T> => ({
  check,
  required: true,
  doc,
});
export const opt = <T>(check: Checker<T>, doc?: string): Field<T | undefined> => ({
  check,
  required: false,
  doc,
});

type Shape = Record<string, Field<unknown>>;
type Out<S extends Shape> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/** The JSON Schema of a mapping with exactly these keys. */
function shapeSchema(shape: Shape): JsonSchema {
  const required = Object.keys(shape).filter((k) => shape[k]!.required);
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(shape).map(([k, f]) => [
        k,
        f.doc === undefined ? f.check.schema : { description: f.doc, ...f.check.schema },
      ]),
    ),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** A mapping with known keys; unknown keys are errors with a did-you-mean hint. */
export function obj<S extends Shape>(shape: S): Checker<Located<Out<S>>> {
  return checker(shapeSchema(shape), (node, ctx, parentPos) => {
    const pos = posOf(node, ctx, parentPos);
    if (!isMap(node)) {
      ctx.report({ pos, message: 'expected a mapping' });
      return undefined;
    }
    const out: Record<string, unknown> = { pos };
    let ok = true;
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const keyPos = posOf(pair.key, ctx, pos);
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!field) {
        ctx.report({
          pos: keyPos,
          message: `unknown key "${key}"`,
          hint: didYouMean(key, Object.keys(shape)),
        });
        ok = false;
        continue;
      }
      seen.add(key);
      const v = field.check(pair.value, ctx, keyPos);
      if (v === undefined) ok = false;
      out[key] = v;
    }
    for (const [key, field] of Object.entries(shape)) {
      if (field.required && !seen.has(key)) {
        ctx.report({ pos, message: `missing required key "${key}"` });
        ok = false;
      }
    }
    return ok ? (out as Located<Out<S>>) : undefined;
  });
}

/** A mapping from keys to values of one kind, in the order written; `key` checks each key. */
export function record<T>(
  value: Checker<T>,
  key: Checker<string> = anyKey,
): Checker<Located<{ entries: [string, T][] }>> {
  const keys = key.schema;
  return checker(
    {
      type: 'object',
      ...(Object.keys(keys).length > 0 ? { propertyNames: keys } : {}),
      additionalProperties: value.schema,
    },
    (node, ctx, parentPos) => {
      const pos = posOf(node, ctx, parentPos);
      if (!isMap(node)) {
        ctx.report({ pos, message: 'expected a mapping' });
        return undefined;
      }
      const entries: [string, T][] = [];
      let ok = true;
      for (const pair of node.items) {
        const k = key(pair.key, ctx, pos);
        const v = value(pair.value, ctx, posOf(pair.key, ctx, pos));
        if (k === undefined || v === undefined) ok = false;
        else entries.push([k, v]);
      }
      return ok ? { pos, entries } : undefined;
    },
  );
}

/** Any key, as written (cross-checks look at it). */
const anyKey: Checker<string> = checker({}, (node) => (isScalar(node) ? String(node.value) : ''));

/** A mapping from spec names (see names.ts) to values of one kind. */
export const dict = <T>(value: Checker<T>) => record(value, name);
