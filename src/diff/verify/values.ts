// Values for the stub servers and clients of --verify, derived from one version's IR. A value
// depends only on the field's name and type, so both versions send the same value for a field
// they share on the wire. `full` sets everything (optional fields present, nullable ones set, one list item);
// `sparse` sets as little as the type allows (optional absent, nullable nil, lists empty);
// `fault` answers with a fault whose code both versions know. The name a value depends on is the
// wire name, so a field or parameter renamed only in TypeScript keeps its value.
import type {
  IrField,
  IrOperation,
  IrSpec,
  IrValue,
  ScalarKind,
} from '../../generator/ir/model.js';

export type Sample = 'full' | 'sparse' | 'fault';
export const SAMPLES: readonly Sample[] = ['full', 'sparse', 'fault'];

function hash(s: string): number {
  let h = 7;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) % 9973;
  return h;
}

export function scalarSample(name: string, kind: ScalarKind, scale: number | null): unknown {
  const n = 1000 + hash(name);
  switch (kind) {
    case 'int':
      return n;
    case 'string':
      return `${name} sample`;
    case 'boolean':
      return true;
    case 'decimal':
      return scale ? `${n}.${'123456789'.slice(0, scale)}` : String(n);
    case 'dateTime':
      return `2026-03-04T05:06:${String(10 + (n % 50)).padStart(2, '0')}`;
  }
}

const MAX_DEPTH = 6;

export function valueSample(
  ir: IrSpec,
  name: string,
  v: IrValue,
  mode: Sample,
  depth = 0,
): unknown {
  if (v.kind === 'scalar') return scalarSample(name, v.scalar, v.scale);
  const t = ir.types.find((x) => x.name === v.typeName)!;
  const out: Record<string, unknown> = {};
  for (const f of t.fields) {
    const value = fieldSample(ir, f, mode, depth + 1);
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}

function fieldSample(ir: IrSpec, f: IrField, mode: Sample, depth: number): unknown {
  if (mode === 'sparse' || depth > MAX_DEPTH) {
    if (f.optional) return undefined;
    if (f.nullable) return null;
    if (f.list) return [];
  }
  const one = () => valueSample(ir, f.xmlName, f.value, mode, depth);
  return f.list ? [one()] : one();
}

export function resultSample(ir: IrSpec, op: IrOperation, mode: Sample): unknown {
  const r = op.result;
  if (r.kind === 'none') return undefined;
  if (r.kind === 'value') return valueSample(ir, op.name, r.value, mode);
  return mode === 'sparse' ? [] : [valueSample(ir, op.name, r.value, mode)];
}

export function paramsSample(op: IrOperation): Record<string, unknown> {
  return Object.fromEntries(
    op.parameters.map((p) => [p.name, scalarSample(p.xmlName, p.scalar, null)]),
  );
}
