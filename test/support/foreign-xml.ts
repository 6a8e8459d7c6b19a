// A deliberately different XML writer, used only by tests: it writes what other SOAP stacks put on
// the wire (prefixed names, a default namespace, reordered elements, comments and whitespace,
// CDATA, character references, 1/0 booleans, unknown extra elements), so decoders are tested
// against something other than our own encoder.
import type { IrField, IrSpec, IrValue } from '../../src/generator/ir/model.js';

export interface Style {
  /** Prefix bound to the service namespace for elements ('' uses a default namespace). */
  readonly prefix: string;
  /** Reverse the order of fields. */
  readonly reverse: boolean;
  /** Add an unknown element and a comment inside every complex value. */
  readonly noise: boolean;
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

function text(s: string, style: Style): string {
  // CDATA when possible (no ]]>), character references otherwise: both must decode the same.
  if (style.noise && !s.includes(']]>') && !s.includes('\r')) return `<![CDATA[${s}]]>`;
  return [...s].map((c) => (/[<>&"'\r\n\t]/.test(c) ? `&#${c.codePointAt(0)};` : c)).join('');
}

export function makeForeignWriter(ir: IrSpec, style: Style) {
  const q = (name: string) => (style.prefix ? `${style.prefix}:${name}` : name);
  const nil = (name: string) => `<${q(name)} xsi:nil="1"/>`;

  const scalar = (v: Extract<IrValue, { kind: 'scalar' }>, x: unknown): string => {
    if (v.scalar === 'boolean') return x ? '1' : '0';
    if (v.scalar === 'string') return text(x as string, style);
    if (v.scalar === 'decimal') return `${x as string}${style.noise ? '000' : ''}`; // trailing zeros beyond the scale
    return String(x);
  };
  const value = (v: IrValue, x: unknown): string =>
    v.kind === 'scalar' ? scalar(v, x) : complex(v.typeName, x as Record<string, unknown>);
  const field = (f: IrField, x: unknown): string => {
    if (x === undefined) return '';
    if (x === null) return nil(f.xmlName);
    const inner = f.list
      ? (x as unknown[])
          .map(
            (i) =>
              `\n  <${q(f.list!.itemElement)}>${value(f.value, i)}</${q(f.list!.itemElement)}>`,
          )
          .join('')
      : value(f.value, x);
    return `<${q(f.xmlName)}>${inner}</${q(f.xmlName)}>`;
  };
  function complex(typeName: string, x: Record<string, unknown>): string {
    const t = ir.types.find((y) => y.name === typeName)!;
    const fields = style.reverse ? [...t.fields].reverse() : t.fields;
    const noise = style.noise
      ? `<!-- from another stack --><${q('FutureField')}><${q('Nested')}>1</${q('Nested')}></${q('FutureField')}>\n`
      : '';
    return noise + fields.map((f) => `\n    ${field(f, x[f.name])}`).join('');
  }
  /** The namespace declarations for an element opening the service namespace. */
  const declare = (ns: string) =>
    `${style.prefix ? ` xmlns:${style.prefix}="${ns}"` : ` xmlns="${ns}"`} xmlns:xsi="${XSI}"`;
  return { q, value, complex, declare };
}
