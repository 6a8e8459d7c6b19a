// Operations: their existence, parameters (client to server: what old clients send must still be
// understood), results (server to client) and HTTP response root.
import type { IrOperation, IrParameter, IrResult } from '../../generator/ir/model.js';
import type { DiffContext, Side } from './context.js';
import { describeValue, pairByNames, parsesAs, valueChange, VALUE_CHANGE_RULES } from './shapes.js';
import { moved } from './types.js';
import type { RuleId } from '../rules.js';

export function compareOperations(ctx: DiffContext): void {
  const inHead = new Map(ctx.headIr.operations.map((o) => [o.name, o]));
  const inBase = new Map(ctx.baseIr.operations.map((o) => [o.name, o]));
  for (const b of ctx.baseIr.operations) {
    const h = inHead.get(b.name);
    if (h) {
      compareOperation(ctx, b, h);
      continue;
    }
    const twin = ctx.headIr.operations.find((o) => !inBase.has(o.name) && sameSignature(ctx, b, o));
    emit(
      ctx,
      'OPERATION_NO_REMOVE',
      b,
      'base',
      [b.name],
      `removed${twin ? ` (renamed to ${twin.name}?)` : ''}: old clients calling it fail`,
    );
  }
  for (const h of ctx.headIr.operations)
    if (!inBase.has(h.name))
      emit(
        ctx,
        'OPERATION_ADDED',
        h,
        'head',
        [h.name],
        'added: server implementations must add a handler',
      );
}

function emit(
  ctx: DiffContext,
  rule: RuleId,
  o: IrOperation,
  side: Side,
  symbol: string[],
  message: string,
) {
  ctx.add({
    rule,
    path: symbol.join('.'),
    side,
    file: o.provenance.file,
    symbol,
    message: `${symbol.join('.')} ${message}`,
    operations: [o.name],
  });
}

function sameSignature(ctx: DiffContext, a: IrOperation, b: IrOperation): boolean {
  return (
    a.parameters.length === b.parameters.length &&
    a.parameters.every(
      (p, i) => p.xmlName === b.parameters[i]!.xmlName && p.scalar === b.parameters[i]!.scalar,
    ) &&
    resultChange(ctx, a.result, b.result) === null
  );
}

function compareOperation(ctx: DiffContext, b: IrOperation, h: IrOperation): void {
  compareParameters(ctx, b, h);
  const r = resultChange(ctx, b.result, h.result);
  if (r) emit(ctx, r.rule, h, 'head', [h.name], r.message);
  // From none, a root is part of RESULT_ADDED: old clients expected no body and read none.
  if (b.httpRoot !== null && b.httpRoot !== h.httpRoot)
    emit(
      ctx,
      'HTTP_ROOT_NO_CHANGE',
      h,
      'head',
      [h.name],
      `HTTP GET/POST response root ${b.httpRoot ?? '(none)'} → ${h.httpRoot ?? '(none)'}: old HTTP clients refuse the response`,
    );
  comparePaging(ctx, b, h);
  if (b.mutating !== h.mutating)
    emit(
      ctx,
      'OPERATION_RETRY_CHANGED',
      h,
      'head',
      [h.name],
      h.mutating
        ? 'now changes data: the generated client no longer retries it'
        : 'no longer changes data: the generated client may retry it',
    );
  if (
    b.docs.join('\n') !== h.docs.join('\n') ||
    b.httpShapeShown !== h.httpShapeShown ||
    b.httpShapeGap !== h.httpShapeGap
  )
    emit(ctx, 'DOC_CHANGED', h, 'head', [h.name], 'documentation changed');
}

/** client.iterate.<method>: its presence, the parameter it pages by and the one sizing a page. */
function comparePaging(ctx: DiffContext, b: IrOperation, h: IrOperation): void {
  const iterate = `client.iterate.${h.method}`;
  if (!b.paging && h.paging)
    return emit(ctx, 'PAGING_ADDED', h, 'head', [h.name], `paging added: ${iterate}`);
  if (!b.paging || !h.paging) {
    if (b.paging)
      emit(
        ctx,
        'PAGING_NO_REMOVE',
        b,
        'base',
        [b.name],
        `paging removed: code calling ${iterate} fails`,
      );
    return;
  }
  if (b.paging.skip !== h.paging.skip)
    emit(
      ctx,
      'PAGING_NO_CHANGE_SKIP',
      h,
      'head',
      [h.name],
      `paging skip ${b.paging.skip} → ${h.paging.skip}: ${iterate} now requires ${b.paging.skip}`,
    );
  if (b.paging.size !== h.paging.size)
    emit(
      ctx,
      'PAGING_SIZE_CHANGED',
      h,
      'head',
      [h.name],
      `paging size ${b.paging.size ?? '(none)'} → ${h.paging.size ?? '(none)'}: ${iterate} ends on another last page`,
    );
}

function compareParameters(ctx: DiffContext, b: IrOperation, h: IrOperation): void {
  const { pairs, removed, added } = pairByNames(b.parameters, h.parameters);
  for (const [bp, hp] of pairs) {
    if (bp.name !== hp.name)
      emit(
        ctx,
        'PARAMETER_TS_RENAMED',
        h,
        'head',
        [h.name, hp.name],
        `renamed from ${bp.name} in TypeScript (still ${hp.xmlName} on the wire): callers and handlers naming ${bp.name} no longer compile`,
      );
    if (bp.xmlName !== hp.xmlName)
      emit(
        ctx,
        'PARAMETER_XML_RENAMED',
        h,
        'head',
        [h.name, hp.name],
        `${bp.xmlName} → ${hp.xmlName} on the wire: the server ignores what old clients send and refuses the request`,
      );
    compareParameter(ctx, h, bp, hp);
  }
  for (const bp of removed) {
    const i = b.parameters.indexOf(bp);
    const twin =
      added.find((a) => h.parameters.indexOf(a) === i && a.scalar === bp.scalar) ??
      added.find((a) => a.scalar === bp.scalar);
    emit(
      ctx,
      'PARAMETER_NO_REMOVE',
      b,
      'base',
      [b.name, bp.name],
      `removed${twin ? ` (renamed to ${twin.name}?)` : ''}: the server ignores what old clients send`,
    );
  }
  for (const a of added)
    emit(
      ctx,
      'PARAMETER_ADDED',
      h,
      'head',
      [h.name, a.name],
      'added: old clients do not send it and the server refuses the request',
    );
  // The sequence is the elements': a parameter renamed only in TypeScript has not moved.
  const byWire = new Map(h.parameters.map((p) => [p.xmlName, p]));
  for (const wire of moved(
    b.parameters.map((p) => p.xmlName),
    h.parameters.map((p) => p.xmlName),
  ))
    emit(
      ctx,
      'PARAMETER_NO_REORDER',
      h,
      'head',
      [h.name, byWire.get(wire)!.name],
      'moved: strict servers and clients expect the parameters in sequence order',
    );
}

function compareParameter(ctx: DiffContext, op: IrOperation, b: IrParameter, h: IrParameter): void {
  if (b.scalar !== h.scalar) {
    const widened = parsesAs(b.scalar, null, h.scalar, null);
    emit(
      ctx,
      widened ? 'PARAMETER_TYPE_WIDENED' : 'PARAMETER_NO_CHANGE_TYPE',
      op,
      'head',
      [op.name, h.name],
      widened
        ? `retyped ${b.scalar} → ${h.scalar}: every value old clients send still parses; the TypeScript type changes`
        : `retyped ${b.scalar} → ${h.scalar}: values old clients send may not parse`,
    );
  }
  if (b.docs.join('\n') !== h.docs.join('\n'))
    emit(ctx, 'DOC_CHANGED', op, 'head', [op.name, h.name], 'documentation changed');
}

const describeResult = (r: IrResult) =>
  r.kind === 'none'
    ? 'none'
    : r.kind === 'value'
      ? describeValue(r.value, false)
      : `${describeValue(r.value, true)} (item ${r.itemElement})`;

/** The rule a result change falls under, or null when old and new results are the same. */
function resultChange(
  ctx: DiffContext,
  b: IrResult,
  h: IrResult,
): { rule: RuleId; message: string } | null {
  const what = `result ${describeResult(b)} → ${describeResult(h)}`;
  if (b.kind === 'none' && h.kind === 'none') return null;
  if (b.kind === 'none')
    return {
      rule: 'RESULT_ADDED',
      message: `${what}: old clients ignore it; servers must return it`,
    };
  if (h.kind === 'none' || b.kind !== h.kind)
    return { rule: 'RESULT_NO_CHANGE_KIND', message: `${what}: old clients cannot read it` };
  const change = valueChange(ctx.baseIr, b.value, ctx.headIr, h.value, ctx.continues);
  if (change !== 'same') {
    const { result: rule, consequence } = VALUE_CHANGE_RULES[change];
    return { rule, message: `${what}${consequence}` };
  }
  if (b.kind === 'list' && h.kind === 'list' && b.itemElement !== h.itemElement)
    return { rule: 'RESULT_ITEM_NO_RENAME', message: `${what}: old clients see an empty list` };
  return null;
}
