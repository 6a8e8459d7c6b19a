// The project's spec as it was before the notImplemented role (the released 1.0.0 had no code for
// it): the edit that removes the code raised for notImplemented, derived from spec/errors.yaml, so
// it follows the spec rather than a copy of its text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC_DIR } from './ir.js';
import type { SpecEdit } from './spec-copy.js';

/** A code entry of errors.yaml (`    - code: X` and its indented keys) whose role is notImplemented. */
const ENTRY = /^ {4}- code: (\w+)\n(?: {6}.*\n)*? {6}raisedFor: notImplemented\n(?: {6}.*\n)*/m;

export function withoutNotImplemented(): SpecEdit & { readonly code: string } {
  const text = readFileSync(join(SPEC_DIR, 'errors.yaml'), 'utf8');
  const m = ENTRY.exec(text);
  if (!m) throw new Error('spec/errors.yaml: no code with raisedFor: notImplemented');
  return { file: 'errors.yaml', from: m[0], to: '', code: m[1]! };
}
