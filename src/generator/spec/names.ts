// Names in the spec become XML element names and TypeScript identifiers, so each must be both:
// ASCII letters, digits and `_`, not starting with a digit, never `xml…` (reserved by XML) and
// never `__proto__` (it would set an object's prototype). TypeScript reserved words are fine as
// property names; they are refused only where a name becomes a type.

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The same rule as JSON Schema, for editors (the spec files' schema). */
export const NAME_SCHEMA = {
  title: 'name',
  type: 'string',
  pattern: '^(?![Xx][Mm][Ll])[A-Za-z_][A-Za-z0-9_]*$',
  not: { const: '__proto__' },
} as const;

/** Why `s` cannot be a spec name, or undefined when it can. */
export function nameProblem(s: string): string | undefined {
  if (!NAME.test(s))
    return 'names are letters, digits and _ (not starting with a digit), so that they are both XML names and TypeScript identifiers';
  if (/^xml/i.test(s)) return 'XML reserves names starting with "xml"';
  if (s === '__proto__') return '__proto__ would set the prototype of decoded objects';
  return undefined;
}

/** Words TypeScript does not accept as the name of a variable (strict mode, modules). */
export const TS_RESERVED: ReadonlySet<string> = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends ' +
    'false finally for function if import in instanceof new null return super switch this throw ' +
    'true try typeof var void while with implements interface let package private protected ' +
    'public static yield await arguments eval'
  ).split(' '),
);

/** Names TypeScript does not accept as an interface name. */
export const TS_TYPE_RESERVED: ReadonlySet<string> = new Set([
  ...TS_RESERVED,
  ...'any unknown never object number string boolean symbol bigint undefined'.split(' '),
]);
