// Copies of the project's spec with single edits, in temporary folders, for tests that change the
// spec and look at what validate, generate or the type check make of it.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPEC_DIR } from './ir.js';

/** One textual edit of a spec file (path relative to spec/): `from` must occur exactly once; an empty `from` creates the file. */
export interface SpecEdit {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

/** Applies an edit to a text, refusing an edit that would match nothing or more than one place. */
export function applyEdit(text: string, e: SpecEdit): string {
  if (e.from === '') {
    if (text !== '') throw new Error(`spec/${e.file} exists: an empty "from" creates a file`);
    return e.to;
  }
  const at = text.indexOf(e.from);
  if (at < 0 || text.indexOf(e.from, at + 1) >= 0)
    throw new Error(`spec/${e.file}: ${JSON.stringify(e.from)} must occur exactly once`);
  return text.slice(0, at) + e.to + text.slice(at + e.from.length);
}

/** A folder holding `spec/` (the project's, edited); remove it with `removeSpecCopies`. */
export async function specCopy(edits: readonly SpecEdit[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-spec-'));
  copies.push(dir);
  const spec = join(dir, 'spec');
  await cp(SPEC_DIR, spec, { recursive: true });
  for (const e of edits) {
    const file = join(spec, e.file);
    await writeFile(file, applyEdit(await readFile(file, 'utf8').catch(() => ''), e));
  }
  return spec;
}

const copies: string[] = [];
export const removeSpecCopies = () =>
  Promise.all(copies.splice(0).map((d) => rm(d, { recursive: true, force: true })));
