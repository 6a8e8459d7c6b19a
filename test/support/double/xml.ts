// The double's XML writing helpers: an element with text, and a nil element in the form the
// binding and the defect say.
import type { Defect } from './defects.js';

export type Has = (d: Defect) => boolean;

export const el = (name: string, text: string | number): string => `<${name}>${text}</${name}>`;

export const nil = (name: string, has: Has, binding: string): string =>
  has('nil-content')
    ? `<${name} xsi:nil="true">0</${name}>`
    : has('http-plain-nil') && binding.startsWith('http')
      ? `<${name} nil="true" />`
      : `<${name} xsi:nil="true" />`;

/** Elements with the same text, one per name (the document lists fields grouped by type). */
export const each = (names: string, text: (name: string) => string | number): string =>
  names
    .split(/\s+/)
    .filter(Boolean)
    .map((n) => el(n, text(n)))
    .join('');
