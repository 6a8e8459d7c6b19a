// The typescript audience, checked by the compiler: code written against the base package must
// still compile against the head package. One probe per line of a generated file compiled with
// both versions' generated sources:
//   call      callers' parameters are accepted and results still read as the base types;
//   implement handlers written for the base receive the head parameters and return what the
//             head accepts;
//   method    old clients' operations still exist; type: exported type names still exist;
//   read      every field of a base type can still be read from the head type;
//   handlers  a whole base implementation covers the head's operations;
//   iterate   base calls of client.iterate.<method> still compile, for operations whose paging
//             changed (the others' iterators follow from their parameters and results).
// Only types.ts is compiled (the client's methods and ServiceHandlers are mapped from its
// OperationTypes), which keeps a check to a few seconds; iterate probes add the whole package.
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts, type Project } from 'ts-morph';
import type { IrSpec } from '../../generator/ir/model.js';
import type { GeneratedFiles } from '../../generator/pipeline.js';
import type { Change } from '../model.js';
import { judge, notObserved, worstPerOperation, type CheckedChange } from './model.js';
import { generatedProject } from '../../generator/typecheck.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export type ProbeKind = 'call' | 'implement' | 'method' | 'type' | 'read' | 'handlers' | 'iterate';

export interface Probe {
  readonly kind: ProbeKind;
  /** The operation or type probed; '' for handlers. */
  readonly subject: string;
  readonly source: string;
  readonly error: string | null;
}

export interface Compiled {
  readonly dir: string;
  readonly files: GeneratedFiles;
}

export function typeProbes(base: IrSpec, head: IrSpec): Omit<Probe, 'error'>[] {
  const inHead = new Map(head.operations.map((o) => [o.name, o]));
  const probes: Omit<Probe, 'error'>[] = [];
  const add = (kind: ProbeKind, subject: string, source: string) =>
    probes.push({ kind, subject, source });
  for (const o of base.operations) {
    const n = o.name;
    if (!inHead.has(n)) {
      add('method', n, `export type m_${n} = H.OperationTypes['${n}'];`);
      continue;
    }
    add('call', n, `export const cp_${n} = (p: B.${n}Params): H.${n}Params => p;`);
    // What the client returns, the result as received: its value (whose fields TypeScript names
    // when one is missing), then whether there may be none.
    add(
      'call',
      n,
      `export const cr_${n} = (r: NonNullable<H.${n}Received>): NonNullable<B.${n}Received> => r;`,
    );
    add('call', n, `export const cu_${n} = (r: H.${n}Received): B.${n}Received => r;`);
    add('implement', n, `export const ip_${n} = (p: H.${n}Params): B.${n}Params => p;`);
    add('implement', n, `export const ir_${n} = (r: B.${n}Result): H.${n}Result => r;`);
    if (o.paging && JSON.stringify(o.paging) !== JSON.stringify(inHead.get(n)!.paging)) {
      const it = `BC.EventServiceClient['iterate']['${o.method}']`;
      add(
        'iterate',
        n,
        `export const it_${n} = (c: HC.EventServiceClient, p: Parameters<${it}>[0]): ReturnType<${it}> => c.iterate.${o.method}(p);`,
      );
    }
  }
  const headTypes = new Set(head.types.map((t) => t.name));
  for (const t of base.types) {
    add('type', t.name, `export type t_${t.name} = H.${t.name};`);
    // Subject: the declaring type's field, as changes name it.
    if (headTypes.has(t.name))
      for (const f of t.fields)
        add(
          'read',
          f.provenance.symbol,
          `export const r_${t.name}_${f.name} = (x: H.${t.name}) => x.${f.name};`,
        );
  }
  add(
    'handlers',
    '',
    'export const handlers = (h: Record<keyof B.OperationTypes, 0>): Record<keyof H.OperationTypes, 0> => h;',
  );
  return probes;
}

/** Compiles the probes against both versions' generated sources (both written under one folder's parent). */
let shared: Project | undefined;

export function runTypeProbes(
  base: Compiled,
  head: Compiled,
  probes: Omit<Probe, 'error'>[],
): Probe[] {
  const root = dirname(base.dir);
  const [b, h] = [basename(base.dir), basename(head.dir)];
  // client.iterate lives in client.ts, which imports most of the package: compiled only when asked.
  const client = probes.some((p) => p.kind === 'iterate');
  const header = [
    `import type * as B from '../../${b}/src/types.js';`,
    `import type * as H from '../../${h}/src/types.js';`,
    ...(client
      ? [
          `import type * as BC from '../../${b}/src/client.js';`,
          `import type * as HC from '../../${h}/src/client.js';`,
        ]
      : []),
  ];
  const checkPath = `${b}/src/evgen-compat.ts`;
  const files = new Map<string, string>();
  for (const [dir, c] of [
    [b, base],
    [h, head],
  ] as const)
    for (const [path, text] of c.files)
      if (path === 'src/types.ts' || (client && path.startsWith('src/') && path.endsWith('.ts')))
        files.set(`${dir}/${path}`, text);
  files.set(checkPath, [...header, ...probes.map((p) => p.source)].join('\n'));
  // Only the probe file is checked: the generated types are read, not checked. One project per
  // process: later checks reuse the parsed libraries and runtime, and drop their own files after.
  shared ??= generatedProject(new Map(), root, PROJECT_ROOT);
  const added = [...files].map(([path, text]) =>
    shared!.createSourceFile(join(root, path), text, { overwrite: true }),
  );
  const errors = new Map<number, string>();
  try {
    for (const d of added.at(-1)!.getPreEmitDiagnostics()) {
      const line = d.getLineNumber() ?? 0;
      errors.set(
        line,
        errors.get(line) ??
          ts
            .flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')
            // Name the versions rather than their temporary folders.
            .replaceAll(`import("${join(root, b)}/src/types").`, 'base.')
            .replaceAll(`import("${join(root, h)}/src/types").`, 'head.'),
      );
    }
  } finally {
    for (const f of added) shared.removeSourceFile(f);
  }
  return probes.map((p, i) => ({ ...p, error: errors.get(header.length + i + 1) ?? null }));
}

const OP_PROBES: readonly ProbeKind[] = ['call', 'implement', 'method', 'iterate'];

/**
 * breaking: a probe of the change's operations (or of its type or field) fails;
 * dangerous: those pass (confirmed when only the whole-implementation probe fails: a new
 * operation to implement); safe: every probe passes.
 */
export function checkTypescript(
  changes: readonly Change[],
  probes: readonly Probe[],
): CheckedChange[] {
  const worst = worstPerOperation(changes, 'typescript');
  return changes.map((c): CheckedChange => {
    const relevant = probes.filter(
      (p) =>
        (OP_PROBES.includes(p.kind) && c.operations.includes(p.subject)) ||
        ((p.kind === 'type' || p.kind === 'read') && p.subject === c.path) ||
        (p.kind === 'handlers' && c.rule === 'OPERATION_ADDED'),
    );
    if (relevant.length === 0)
      return notObserved(c, 'typescript', 'no type of the base package is involved');
    const failed = relevant.filter((p) => p.error !== null);
    const describe = (p: Probe) => `${p.kind} ${p.subject}: ${p.error}`;
    const compiles = `base code compiles against the head package (${relevant.length} probes)`;
    return judge(c, 'typescript', worst, {
      breaking: failed.map(describe),
      typical: failed.filter((p) => p.kind !== 'handlers').map(describe),
      some: failed.map(describe),
      any: failed.map(describe),
      passed: { breaking: compiles, dangerous: compiles, safe: compiles },
    });
  });
}
