// Reads every spec file, checks each against its format with positions, cross-checks what loaded,
// and returns the raw spec or throws one SpecError listing every problem found (format and
// cross-references together). YAML syntax errors come alone: a file that does not parse declares
// nothing, and the unknown names that follows elsewhere would only bury the error that matters.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { SpecError, type Diagnostic } from './diagnostics.js';
import * as format from './format.js';
import type { CheckContext, Checker } from './schema.js';
import { crossCheck, type Declared } from './cross-check.js';

export interface RawSpec {
  readonly service: format.ServiceFile;
  readonly primitives: format.PrimitivesFile;
  readonly authentication: format.AuthenticationFile;
  readonly operations: format.OperationsFile;
  readonly states: format.StatesFile;
  readonly errors: format.ErrorsFile;
  readonly gaps: format.GapsFile;
  readonly conformance: format.ConformanceFile;
  /** one entry per file under types/, sorted by path */
  readonly typeFiles: readonly { readonly file: string; readonly types: format.SpecType[] }[];
}

/** What loaded of a spec that may have errors: a file with a format error is left out. */
export type PartialSpec = { readonly [K in keyof RawSpec]?: RawSpec[K] } & {
  readonly typeFiles: RawSpec['typeFiles'];
};

const FIXED_FILES = {
  service: ['service.yaml', format.serviceFile],
  primitives: ['primitives.yaml', format.primitivesFile],
  authentication: ['authentication.yaml', format.authenticationFile],
  operations: ['operations.yaml', format.operationsFile],
  states: ['states.yaml', format.statesFile],
  errors: ['errors.yaml', format.errorsFile],
  gaps: ['gaps.yaml', format.gapsFile],
  conformance: ['conformance.yaml', format.conformanceFile],
} as const;

/** The spec files, relative to the spec folder: the fixed ones and types/*.yaml. */
export const FIXED_FILE_NAMES: readonly string[] = Object.values(FIXED_FILES).map(([n]) => n);

/** Every spec file (relative to the spec folder) and the format the loader checks it against. */
export const SPEC_FILE_FORMATS: readonly {
  readonly file: string;
  readonly format: Checker<unknown>;
}[] = [
  ...Object.values(FIXED_FILES).map(([file, f]) => ({ file, format: f })),
  { file: 'types/*.yaml', format: format.typesFile },
];

/** Loads and validates the spec in `specDir`. File names in messages are relative to its parent. */
export async function loadSpec(specDir: string): Promise<RawSpec> {
  const diagnostics: Diagnostic[] = [];
  const syntax: Diagnostic[] = [];
  const declared: Declared = { types: new Set(), operations: new Set(), gaps: new Set() };
  const display = (abs: string) =>
    join(basename(specDir), relative(specDir, abs)).split('\\').join('/');

  const loadOne = async <T>(abs: string, checker: Checker<T>): Promise<T | undefined> => {
    const file = display(abs);
    let text: string;
    try {
      text = await readFile(abs, 'utf8');
    } catch {
      diagnostics.push({ pos: { file, line: 1, col: 1 }, message: 'file is missing' });
      return undefined;
    }
    const parsed = parseYaml(text, file, syntax, diagnostics);
    if (!parsed) return undefined;
    collectDeclared(parsed.doc.toJS(), declared);
    return checker(parsed.doc.contents, parsed.ctx, { file, line: 1, col: 1 });
  };

  const fixed: Record<string, unknown> = {};
  for (const [key, [name, checker]] of Object.entries(FIXED_FILES)) {
    fixed[key] = await loadOne(join(specDir, name), checker as Checker<unknown>);
  }
  const typeDir = join(specDir, 'types');
  const typeNames = (await readdir(typeDir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.yaml'))
    .sort();
  const typeFiles: { file: string; types: format.SpecType[] }[] = [];
  for (const name of typeNames) {
    const parsed = await loadOne(join(typeDir, name), format.typesFile);
    if (parsed) typeFiles.push({ file: display(join(typeDir, name)), types: parsed.types });
  }
  for (const stray of await strayFiles(specDir, typeNames))
    diagnostics.push({
      pos: { file: display(join(specDir, stray)), line: 1, col: 1 },
      message: 'not a spec file: nothing reads it',
      hint: `the spec is ${FIXED_FILE_NAMES.join(', ')} and types/*.yaml`,
    });

  if (syntax.length > 0) throw new SpecError(sortDiagnostics(syntax));
  const spec = { ...fixed, typeFiles } as PartialSpec;
  diagnostics.push(...crossCheck(spec, declared));
  if (diagnostics.length > 0) throw new SpecError(sortDiagnostics(diagnostics));
  return spec as RawSpec;
}

/** YAML files in the spec folder that are not spec files. */
async function strayFiles(specDir: string, typeNames: readonly string[]): Promise<string[]> {
  const top = await readdir(specDir, { withFileTypes: true }).catch(() => []);
  const inTypes = await readdir(join(specDir, 'types')).catch(() => [] as string[]);
  return (
    [
      ...top
        .filter((e) => !(e.isDirectory() ? e.name === 'types' : FIXED_FILE_NAMES.includes(e.name)))
        .map((e) => e.name),
      ...inTypes.filter((n) => !typeNames.includes(n)).map((n) => `types/${n}`),
    ]
      // YAML is what the loader would read; other files (spec/CHANGELOG.md) are for other readers.
      .filter((n) => /\.ya?ml$/.test(n) && !basename(n).startsWith('.'))
      .sort()
  );
}

/** Names declared in a file even if its format is wrong, so cross-checks never blame their users. */
function collectDeclared(json: unknown, into: Declared): void {
  const names = (list: unknown, key: string): string[] =>
    Array.isArray(list)
      ? list
          .map((x) => (x as Record<string, unknown> | null)?.[key])
          .filter((n) => typeof n === 'string')
      : [];
  const o = (json ?? {}) as Record<string, unknown>;
  for (const n of names(o.types, 'name')) into.types.add(n);
  for (const n of names(o.operations, 'name')) into.operations.add(n);
  for (const n of names(o.gaps, 'id')) into.gaps.add(n);
}

/** Parses one YAML text; syntax errors go to `out`, the format checks' diagnostics to `report`. */
function parseYaml(
  text: string,
  file: string,
  out: Diagnostic[],
  report: Diagnostic[],
): { doc: Document; ctx: CheckContext } | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const codes = new Set(doc.errors.map((e) => e.code));
  for (const e of doc.errors) {
    const start = e.linePos?.[0] ?? { line: 1, col: 1 };
    if (
      e.code === 'MULTILINE_IMPLICIT_KEY' ||
      (e.code === 'BLOCK_AS_IMPLICIT_KEY' && !codes.has('MULTILINE_IMPLICIT_KEY'))
    ) {
      // The yaml library blames the key before the mis-indented line; point at the line itself.
      const line = e.linePos?.[1]?.line ?? start.line;
      const col = (text.split('\n')[line - 1]?.search(/\S/) ?? 0) + 1;
      out.push({
        pos: { file, line, col },
        message: 'bad indentation: this line is indented deeper than the key above it',
        hint: 'align it with its sibling keys',
      });
    } else if (e.code !== 'BLOCK_AS_IMPLICIT_KEY') {
      out.push({
        pos: { file, line: start.line, col: start.col },
        message: yamlMessage(e.code, e.message),
      });
    }
  }
  if (doc.errors.length > 0) return undefined;
  return { doc, ctx: { file, lines, report: (d) => report.push(d) } };
}

function yamlMessage(code: string, message: string): string {
  const first = (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
  if (code === 'DUPLICATE_KEY') return `duplicate key: ${first}`;
  if (code === 'BAD_INDENT') return `bad indentation: ${first}`;
  return `YAML syntax: ${first}`;
}

function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return [...ds].sort(
    (a, b) =>
      a.pos.file.localeCompare(b.pos.file) || a.pos.line - b.pos.line || a.pos.col - b.pos.col,
  );
}
