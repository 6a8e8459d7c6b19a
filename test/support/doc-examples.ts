// Code blocks of the docs that tests run as written: the block after `<!-- <tier>: <name> -->`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from './ir.js';

/** The marked examples of one docs file (path from the project root), by name. */
export async function docExamples(path: string, tier: string): Promise<(name: string) => string> {
  const text = await readFile(join(PROJECT_ROOT, path), 'utf8');
  return (name) => {
    const m = new RegExp(`<!-- ${tier}: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(text);
    if (!m) throw new Error(`${path} has no example marked <!-- ${tier}: ${name} -->`);
    return m[1]!;
  };
}
