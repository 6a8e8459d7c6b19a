/** The primitive types the generator and the runtime implement; primitives.yaml describes each. */
export const PRIMITIVES = ['int', 'string', 'boolean', 'dateTime', 'decimal'] as const;
export type PrimitiveName = (typeof PRIMITIVES)[number];
export const primitiveNames: readonly string[] = PRIMITIVES;
export const isPrimitive = (s: string): s is PrimitiveName => primitiveNames.includes(s);
