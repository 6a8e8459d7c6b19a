// The reference pages and the spec files' JSON Schemas, each written from its source of truth
// (`evgen docs --reference`), and the check CI runs (`--check`): a page that is missing, differs
// from what its source gives now, or was written by an earlier run and is no longer produced; and
// a spec file that does not start with the comment naming its schema.
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDifference } from '../generator/diff.js';
import { formatOutput } from '../generator/render/format.js';
import { loadIr } from '../generator/pipeline.js';
import { cliPage } from './cli.js';
import { diffRulesPage } from './diff-rules.js';
import { faultCodesPage } from './fault-codes.js';
import { GENERATED_MARK } from './markdown.js';
import { specFormatPage } from './spec-format.js';
import { formatOf, schemaComment, specSchemas } from './spec-schema.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const REFERENCE_DIR = 'docs/reference';

/** Every file `evgen docs --reference` writes, by path from the project root, sorted. */
export async function referenceFiles(root = PROJECT_ROOT): Promise<Map<string, string>> {
  const ir = await loadIr(join(root, 'spec'));
  const files = new Map<string, string>([
    [`${REFERENCE_DIR}/cli.md`, cliPage()],
    [`${REFERENCE_DIR}/diff-rules.md`, diffRulesPage()],
    [`${REFERENCE_DIR}/fault-codes.md`, faultCodesPage(ir)],
    [`${REFERENCE_DIR}/spec-format.md`, specFormatPage()],
  ]);
  for (const [path, schema] of specSchemas())
    files.set(path, await formatOutput('json', JSON.stringify(schema), path));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export interface ReferenceProblem {
  readonly path: string;
  readonly problem: string;
}

const readText = (abs: string) => readFile(abs, 'utf8').catch(() => undefined);

/** Spec files by path from the spec folder: the top level's *.yaml and types/*.yaml. */
async function specFiles(root: string): Promise<string[]> {
  const list = (dir: string) => readdir(join(root, 'spec', dir)).catch(() => [] as string[]);
  const files = [...(await list('')), ...(await list('types')).map((n) => `types/${n}`)];
  return files.filter((p) => p.endsWith('.yaml') && formatOf(p) !== undefined).sort();
}

/** Files under docs/reference/ an earlier run wrote (they carry the mark) that are not produced now. */
async function staleFiles(root: string, files: ReadonlyMap<string, string>): Promise<string[]> {
  const entries = await readdir(join(root, REFERENCE_DIR), { recursive: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const path = `${REFERENCE_DIR}/${entry.split('\\').join('/')}`;
    if (files.has(path)) continue;
    const text = await readText(join(root, path)).catch(() => undefined);
    if (
      text?.includes(GENERATED_MARK) ||
      (text?.includes('"$comment": "Written by evgen docs') ?? false)
    )
      out.push(path);
  }
  return out.sort();
}

/** What is not as the sources say; empty when everything is current. */
export async function checkReference(root = PROJECT_ROOT): Promise<ReferenceProblem[]> {
  const files = await referenceFiles(root);
  const problems: ReferenceProblem[] = [];
  for (const [path, want] of files) {
    const have = await readText(join(root, path));
    if (have === undefined) problems.push({ path, problem: 'missing' });
    else if (have !== want)
      problems.push({ path, problem: `different\n${describeDifference(want, have) ?? ''}` });
  }
  for (const path of await staleFiles(root, files))
    problems.push({ path, problem: 'no longer written: its source is gone (delete it)' });
  for (const file of await specFiles(root)) {
    const first = (await readText(join(root, 'spec', file)))?.split('\n', 1)[0];
    if (first !== schemaComment(file))
      problems.push({
        path: `spec/${file}`,
        problem: `does not start with the line naming its schema: ${schemaComment(file)}`,
      });
  }
  return problems;
}

/** Writes every page that differs and adds the schema line to spec files lacking it; the paths changed. */
export async function writeReference(root = PROJECT_ROOT): Promise<string[]> {
  const changed: string[] = [];
  for (const [path, want] of await referenceFiles(root)) {
    if ((await readText(join(root, path))) === want) continue;
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), want);
    changed.push(path);
  }
  for (const file of await specFiles(root)) {
    const abs = join(root, 'spec', file);
    const text = (await readText(abs)) ?? '';
    const lines = text.split('\n');
    if (lines[0] === schemaComment(file)) continue;
    if (lines[0]?.startsWith('# yaml-language-server:')) lines.shift();
    await writeFile(abs, [schemaComment(file), ...lines].join('\n'));
    changed.push(`spec/${file}`);
  }
  return changed;
}
