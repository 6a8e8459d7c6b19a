// src/runtime/README.md documents what generated code relies on: every name the generated files
// import from @evgen/runtime and @evgen/runtime/internal, and every public method of XmlDocument, the document the generated
// decoders walk. Both lists are read from the code here, so the README cannot fall behind it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const GENERATED = join(ROOT, 'generated', 'src');
const RUNTIME_ENTRIES = ['@evgen/runtime', '@evgen/runtime/internal'];

const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** Names imported or re-exported from the runtime's two entries by the generated files, by name. */
function runtimeImports(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of readdirSync(GENERATED)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    for (const s of parse(join(GENERATED, file)).statements) {
      if (!ts.isImportDeclaration(s) && !ts.isExportDeclaration(s)) continue;
      const from = s.moduleSpecifier;
      if (from === undefined || !ts.isStringLiteral(from) || !RUNTIME_ENTRIES.includes(from.text))
        continue;
      const bindings = ts.isImportDeclaration(s) ? s.importClause?.namedBindings : s.exportClause;
      if (
        bindings === undefined ||
        ts.isNamespaceImport(bindings) ||
        ts.isNamespaceExport(bindings)
      )
        throw new Error(`${file}: import the runtime by name, so this test can list what it uses`);
      for (const e of bindings.elements) {
        const name = (e.propertyName ?? e.name).text;
        used.set(name, [...(used.get(name) ?? []), file]);
      }
    }
  }
  return used;
}

/** The public methods of XmlDocument (src/runtime/xml/document.ts). */
function documentMethods(): string[] {
  const source = parse(join(ROOT, 'src', 'runtime', 'xml', 'document.ts'));
  const cls = source.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'XmlDocument',
  );
  if (cls === undefined) throw new Error('XmlDocument is not declared in document.ts');
  const hidden = (m: ts.ClassElement) =>
    ts
      .getModifiers(m as ts.MethodDeclaration)
      ?.some(
        (x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword,
      ) ?? false;
  return cls.members
    .filter((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && !hidden(m))
    .map((m) => m.name)
    .filter((n): n is ts.Identifier => ts.isIdentifier(n))
    .map((n) => n.text);
}

/** Identifiers the README shows as code: in fenced blocks and `inline code`. */
function readmeCodeNames(): Set<string> {
  const text = readFileSync(join(ROOT, 'src', 'runtime', 'README.md'), 'utf8');
  const code = [...text.matchAll(/```[^\n]*\n([^]*?)```|`([^`\n]+)`/g)].map((m) => m[1] ?? m[2]);
  return new Set(code.flatMap((c) => c!.match(/[A-Za-z_$][\w$]*/g) ?? []));
}

describe('src/runtime/README.md', () => {
  const documented = readmeCodeNames();

  it('lists every name the generated files import from @evgen/runtime and its internal entry', () => {
    const used = runtimeImports();
    expect(used.size).toBeGreaterThan(0);
    const missing = [...used].filter(([name]) => !documented.has(name));
    expect(missing.map(([name, files]) => `${name} (${files.join(', ')})`)).toEqual([]);
  });

  it('lists every public method of XmlDocument', () => {
    const methods = documentMethods();
    expect(methods).toContain('nsIdOf');
    expect(methods.filter((m) => !documented.has(m))).toEqual([]);
  });
});
