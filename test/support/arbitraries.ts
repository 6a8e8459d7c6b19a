// fast-check arbitraries for every spec type, derived from the IR: values at the edges of their
// types (int32 bounds, decimals with every digit of their scale, nil, empty and one-item lists).
import fc from 'fast-check';
import type {
  IrField,
  IrResult,
  IrSpec,
  IrValue,
  ScalarKind,
} from '../../src/generator/ir/model.js';

// Characters XML 1.0 can carry (no C0 controls other than tab/LF/CR, no U+FFFE/FFFF).
const xmlChar = fc.oneof(
  fc.constantFrom('a', 'Z', ' ', '&', '<', '>', '"', "'", '\t', '\n', '\r', 'é', '€', '😀', ']]>'),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
export const xmlString = fc
  .array(xmlChar, { maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((s) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/u.test(s));

const pad = (n: number, w: number) => String(n).padStart(w, '0');

export function decimalArb(scale: number): fc.Arbitrary<string> {
  const maxUnits = 10n ** BigInt(18 + scale) - 1n;
  return fc.bigInt({ min: -maxUnits, max: maxUnits }).map((units) => {
    const neg = units < 0n;
    const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
    const int = digits.slice(0, digits.length - scale);
    const frac = digits.slice(digits.length - scale);
    return `${neg ? '-' : ''}${int}${scale > 0 ? `.${frac}` : ''}`;
  });
}

export const dateTimeArb = fc
  .record({
    y: fc.integer({ min: 1, max: 9999 }),
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
  })
  .map(
    ({ y, mo, d, h, mi, s }) =>
      `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`,
  );

export function scalarArb(kind: ScalarKind, scale: number | null): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'int':
      return fc.oneof(
        fc.constantFrom(0, -1, 2147483647, -2147483648),
        fc.integer({ min: -2147483648, max: 2147483647 }),
      );
    case 'string':
      return xmlString;
    case 'boolean':
      return fc.boolean();
    case 'decimal':
      return decimalArb(scale ?? 0);
    case 'dateTime':
      return dateTimeArb;
  }
}

/** One arbitrary per complex type name. */
export function typeArbitraries(ir: IrSpec): Map<string, fc.Arbitrary<Record<string, unknown>>> {
  const out = new Map<string, fc.Arbitrary<Record<string, unknown>>>();
  const valueArb = (v: IrValue): fc.Arbitrary<unknown> =>
    v.kind === 'scalar' ? scalarArb(v.scalar, v.scale) : typeArb(v.typeName);
  const fieldArb = (f: IrField): fc.Arbitrary<unknown> => {
    let arb = f.list ? fc.array(valueArb(f.value), { maxLength: 2 }) : valueArb(f.value);
    if (f.nullable) arb = fc.option(arb, { nil: null, freq: 3 });
    if (f.optional) arb = fc.option(arb, { nil: undefined, freq: 3 });
    return arb;
  };
  const typeArb = (name: string): fc.Arbitrary<Record<string, unknown>> => {
    const hit = out.get(name);
    if (hit) return hit;
    const t = ir.types.find((x) => x.name === name);
    if (!t) throw new Error(`no type ${name}`);
    const arb = fc.record(Object.fromEntries(t.fields.map((f) => [f.name, fieldArb(f)])), {
      noNullPrototype: true,
    }) as fc.Arbitrary<Record<string, unknown>>;
    out.set(name, arb);
    return arb;
  };
  for (const t of ir.types) if (!t.abstract) typeArb(t.name);
  return out;
}

/** A sample of an operation's result (`seed` fixes it): one value, or a list of them. */
export function sampleResult(
  arbs: ReadonlyMap<string, fc.Arbitrary<Record<string, unknown>>>,
  r: IrResult,
  seed: number,
  list: { minLength?: number; maxLength?: number } = { minLength: 1, maxLength: 3 },
): unknown {
  if (r.kind === 'none') return undefined;
  const one =
    r.value.kind === 'complex'
      ? arbs.get(r.value.typeName)!
      : scalarArb(r.value.scalar, r.value.scale);
  const arb = r.kind === 'value' ? one : fc.array(one, list);
  return fc.sample(arb, { seed, numRuns: 1 })[0];
}
