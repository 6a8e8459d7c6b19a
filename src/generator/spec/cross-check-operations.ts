// Cross-checks of the operations: names and methods unique, parameters primitive (decimals with a
// declared scale), results that exist and name their HTTP root, paging by int parameters.
import { uniqueNames, uniqueWireNames, type CheckCtx } from './check-context.js';
import { checkPlainItem, checkScale, checkTypeRef } from './cross-check-values.js';
import { didYouMean } from './diagnostics.js';
import { isPrimitive, primitiveNames, type SpecOperation } from './format.js';

export function checkOperations(c: CheckCtx): void {
  const { spec, report } = c;
  const operations = spec.operations?.operations ?? [];
  uniqueNames(
    operations.map((o) => ({ name: o.name, pos: o.pos })),
    'operation',
    report,
  );
  // Client and handler methods are the names with a lower-case first letter.
  uniqueNames(
    operations.map((o) => ({ name: o.name.charAt(0).toLowerCase() + o.name.slice(1), pos: o.pos })),
    'method name',
    report,
  );
  // A type T is also T + 'Received' in the generated types: what a client reads.
  for (const t of c.types.keys()) {
    const clash = c.types.get(`${t}Received`);
    if (clash)
      report(clash.pos, `type "${t}Received" is the name of the received form of type "${t}"`);
  }
  for (const op of operations) {
    for (const suffix of ['Params', 'Result', 'Received'])
      if (c.types.has(`${op.name}${suffix}`))
        report(
          op.pos,
          `type "${op.name}${suffix}" is the name of this operation's ${suffix.toLowerCase()} type`,
        );
    if (c.types.has(op.name))
      report(
        op.pos,
        `operation "${op.name}" has the name of a type: both would have the received type ${op.name}Received`,
      );
    uniqueNames(
      op.parameters.map((p) => ({ name: p.name, pos: p.pos })),
      'parameter',
      report,
      ` in operation "${op.name}"`,
    );
    uniqueWireNames(op.parameters, report, ` in operation "${op.name}"`);
    for (const p of op.parameters) {
      if (!isPrimitive(p.type))
        report(
          p.pos,
          `parameter "${p.name}" must have a primitive type, got "${p.type}"`,
          didYouMean(p.type, primitiveNames),
        );
      checkScale(c, `parameter "${p.name}"`, p.type, p.scale, p.pos);
    }
    const r = op.result;
    checkResult(c, op);
    if (r.kind !== 'none' && op.http.root === undefined)
      report(op.http.pos, `operation "${op.name}" has a result but no HTTP root element`);
    c.checkGap(op.http.gap, op.http.pos);
    if (!op.http.shown && op.http.gap === undefined)
      report(op.http.pos, `operation "${op.name}" has http.shown false but names no gap`);
    if (r.kind === 'none' && op.http.root !== undefined)
      report(op.http.pos, `operation "${op.name}" has no result but names an HTTP root element`);
    checkPaging(c, op);
  }
  checkHttpRoots(c, operations);
}

/** One root element, one type: the WSDL declares each HTTP root once. */
function checkHttpRoots(c: CheckCtx, operations: readonly SpecOperation[]): void {
  const shape = (o: SpecOperation) =>
    JSON.stringify([o.result.kind, o.result.type, o.result.of, o.result.item, o.result.scale]);
  const first = new Map<string, SpecOperation>();
  for (const op of operations) {
    const root = op.http.root;
    if (root === undefined || op.result.kind === 'none') continue;
    const other = first.get(root);
    if (!other) first.set(root, op);
    else if (shape(other) !== shape(op))
      c.report(
        op.http.pos,
        `HTTP root "${root}" of "${op.name}" is also the root of "${other.name}", whose result differs`,
        'name another root element',
      );
  }
}

/** A result is nothing, one value (a primitive or a complex type) or a list of them. */
function checkResult(c: CheckCtx, op: SpecOperation): void {
  const r = op.result;
  const what = `result of "${op.name}"`;
  if (r.kind === 'none') {
    if (r.type !== undefined || r.of !== undefined || r.item !== undefined || r.scale !== undefined)
      c.report(r.pos, `${what} has kind none but names a type`);
    return;
  }
  if (r.kind === 'type') {
    if (r.of !== undefined || r.item !== undefined)
      c.report(r.pos, `${what} has of/item but is not a list`, 'use kind: list');
    if (r.type === undefined) return c.report(r.pos, `${what} has kind type but no type`);
    checkTypeRef(c, r.type, r.pos, false);
    return checkScale(c, what, r.type, r.scale, r.pos);
  }
  if (r.type !== undefined) c.report(r.pos, `list ${what} names type: its items are of`);
  if (r.of === undefined || r.item === undefined)
    return c.report(r.pos, `list result of "${op.name}" needs of and item`);
  checkTypeRef(c, r.of, r.pos, false);
  checkPlainItem(c, r.of, r.item, r.pos);
  if (r.of !== 'list') checkScale(c, what, r.of, r.scale, r.pos);
}

/** paging names int parameters of an operation with a list result. */
function checkPaging(c: CheckCtx, op: SpecOperation): void {
  if (!op.paging) return;
  if (op.result.kind !== 'list')
    c.report(op.paging.pos, `paging of "${op.name}" needs a list result`);
  for (const name of [op.paging.skip, op.paging.size].filter((n) => n !== undefined)) {
    const param = op.parameters.find((p) => p.name === name);
    if (!param)
      c.report(
        op.paging.pos,
        `paging of "${op.name}" names "${name}", which is not a parameter`,
        didYouMean(
          name,
          op.parameters.map((p) => p.name),
        ),
      );
    else if (param.type !== 'int')
      c.report(op.paging.pos, `paging of "${op.name}" names "${name}", a ${param.type}: not int`);
  }
}
