// The package's "." entry: every module's exports by name, read from the rendered modules
// themselves, so the barrel lists exactly what they export (no `export *`: a name two modules
// export fails the type check instead of vanishing, and the API report lists each name).
import ts from 'typescript';

export interface ModuleExports {
  readonly path: string;
  readonly values: readonly string[];
  readonly types: readonly string[];
}

/** The names a module exports: values (a name that is also a type is exported once, as a value). */
export function exportedNames(path: string, source: string): ModuleExports {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false);
  const values = new Set<string>();
  const types = new Set<string>();
  for (const st of file.statements) {
    if (ts.isExportDeclaration(st)) {
      const names = st.exportClause && ts.isNamedExports(st.exportClause) ? st.exportClause : null;
      if (!names) throw new Error(`${path}: export * in a generated module`);
      for (const e of names.elements)
        (st.isTypeOnly || e.isTypeOnly ? types : values).add(e.name.text);
      continue;
    }
    if (
      !ts.canHaveModifiers(st) ||
      !ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    )
      continue;
    if (ts.isVariableStatement(st))
      st.declarationList.declarations.forEach(
        (d) => ts.isIdentifier(d.name) && values.add(d.name.text),
      );
    else if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st))
      types.add(st.name.text);
    else if (
      (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) &&
      st.name
    )
      values.add(st.name.text);
  }
  const sorted = (s: Iterable<string>) => [...s].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { path, values: sorted(values), types: sorted([...types].filter((t) => !values.has(t))) };
}
