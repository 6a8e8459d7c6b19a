// Type-checks generated TypeScript in memory with ts-morph before anything is written, so a
// template change that produces broken code fails `evgen generate` with file:line messages.
import { join, relative } from 'node:path';
import { Project, ts, type Diagnostic } from 'ts-morph';
import type { GeneratedFiles } from './pipeline.js';

export function typecheckGenerated(
  files: GeneratedFiles,
  outDir: string,
  projectRoot: string,
): string[] {
  return generatedProject(files, outDir, projectRoot)
    .getPreEmitDiagnostics()
    .map((d) => formatDiagnostic(d, projectRoot));
}

/** The generated files in memory under `outDir`, with the compiler options they are checked with. */
export function generatedProject(
  files: GeneratedFiles,
  outDir: string,
  projectRoot: string,
): Project {
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      strict: true,
      noUncheckedIndexedAccess: true,
      // Import lists follow use: an unused import (or local) is as wrong as a missing one.
      noUnusedLocals: true,
      noUnusedParameters: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(projectRoot, 'node_modules/@types')],
      paths: {
        '@evgen/runtime': [join(projectRoot, 'src/runtime/index.ts')],
        '@evgen/runtime/internal': [join(projectRoot, 'src/runtime/internal.ts')],
      },
    },
  });
  for (const [path, text] of files) {
    if (path.endsWith('.ts') && !path.endsWith('.test.ts'))
      project.createSourceFile(join(outDir, path), text, { overwrite: true });
  }
  return project;
}

export function formatDiagnostic(d: Diagnostic, projectRoot: string): string {
  const file = d.getSourceFile();
  const where = file
    ? `${relative(projectRoot, file.getFilePath())}:${d.getLineNumber() ?? 0}`
    : '(project)';
  return `${where}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`;
}
