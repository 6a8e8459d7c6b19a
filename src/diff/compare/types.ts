// Complex types and their fields. Every complex type is reached only through results, so a field
// change is judged as a server-to-client change: what old clients make of what a new server sends.
import type { IrField, IrType } from '../../generator/ir/model.js';
import type { DiffContext } from './context.js';
import {
  describeValue,
  operationsReaching,
  sameShape,
  valueChange,
  VALUE_CHANGE_RULES,
} from './shapes.js';
import type { RuleId } from '../rules.js';

export function compareTypes(ctx: DiffContext): void {
  const baseOps = operationsReaching(ctx.baseIr);
  const headOps = operationsReaching(ctx.headIr);
  const opsOf = (name: string) => [...(baseOps.get(name) ?? []), ...(headOps.get(name) ?? [])];
  const headTypes = new Map(ctx.headIr.types.map((t) => [t.name, t]));
  const baseTypes = new Map(ctx.baseIr.types.map((t) => [t.name, t]));

  for (const b of ctx.baseIr.types) {
    const h = headTypes.get(b.name);
    if (h) {
      compareFields(ctx, b, h, opsOf(b.name));
      if (b.docs.join('\n') !== h.docs.join('\n') || b.section !== h.section || b.gap !== h.gap)
        typeChange(ctx, 'DOC_CHANGED', h, 'head', `${b.name}: documentation changed`, []);
      continue;
    }
    const renamed = ctx.headIr.types.find(
      (t) => !baseTypes.has(t.name) && sameShape(ctx.baseIr, b.name, ctx.headIr, t.name),
    );
    typeChange(
      ctx,
      'TYPE_NO_REMOVE',
      b,
      'base',
      `${b.name} removed${renamed ? ` (renamed to ${renamed.name}?)` : ''}: code naming the type no longer compiles`,
      opsOf(b.name),
    );
  }
  for (const h of ctx.headIr.types)
    if (!baseTypes.has(h.name))
      typeChange(ctx, 'TYPE_ADDED', h, 'head', `${h.name} added`, opsOf(h.name));
}

function typeChange(
  ctx: DiffContext,
  rule: RuleId,
  t: IrType,
  side: 'base' | 'head',
  message: string,
  operations: string[],
) {
  ctx.add({
    rule,
    path: t.name,
    side,
    file: t.provenance.file,
    symbol: [t.name],
    message,
    operations,
  });
}

function compareFields(ctx: DiffContext, b: IrType, h: IrType, operations: string[]): void {
  const inHead = new Map(h.fields.map((f) => [f.name, f]));
  const inBase = new Map(b.fields.map((f) => [f.name, f]));
  const added = h.fields.filter((f) => !inBase.has(f.name));
  const emit = (rule: RuleId, f: IrField, side: 'base' | 'head', message: string) =>
    ctx.add({
      rule,
      path: f.provenance.symbol,
      side,
      file: f.provenance.file,
      symbol: f.provenance.symbol.split('.'),
      message: `${f.provenance.symbol} ${message}`,
      operations,
    });

  b.fields.forEach((bf, i) => {
    const hf = inHead.get(bf.name);
    if (hf) return compareField(ctx, bf, hf, (rule, message) => emit(rule, hf, 'head', message));
    const twin =
      added.find((a) => h.fields.indexOf(a) === i && sameField(ctx, bf, a)) ??
      added.find((a) => sameField(ctx, bf, a));
    const readers = bf.optional
      ? 'clients reading it silently lose its value'
      : 'clients reading it fail';
    emit(
      'FIELD_NO_REMOVE',
      bf,
      'base',
      twin
        ? `removed (renamed?): ${readers}; strict clients reject the new element ${twin.xmlName}`
        : `removed: ${readers}`,
    );
  });
  for (const a of added)
    emit(
      a.optional ? 'FIELD_ADDED_OPTIONAL' : 'FIELD_ADDED_REQUIRED',
      a,
      'head',
      a.optional
        ? 'added (optional): strict clients reject the new element'
        : 'added (required): strict clients reject the new element; servers must set it',
    );
  if (b.wireOrderKnown && h.wireOrderKnown)
    for (const name of moved(
      b.fields.map((f) => f.name),
      h.fields.map((f) => f.name),
    ))
      emit(
        'FIELD_NO_MOVE',
        inHead.get(name)!,
        'head',
        'moved in the sequence: strict clients reject the new order',
      );
}

function sameField(ctx: DiffContext, a: IrField, b: IrField): boolean {
  return (
    a.nullable === b.nullable &&
    a.optional === b.optional &&
    (a.list === null) === (b.list === null) &&
    (a.value.kind === 'scalar'
      ? b.value.kind === 'scalar' &&
        a.value.scalar === b.value.scalar &&
        a.value.scale === b.value.scale
      : b.value.kind === 'complex' &&
        sameShape(ctx.baseIr, a.value.typeName, ctx.headIr, b.value.typeName))
  );
}

type Emit = (rule: RuleId, message: string) => void;

function compareField(ctx: DiffContext, b: IrField, h: IrField, emit: Emit): void {
  const was = describeValue(b.value, b.list !== null);
  const now = describeValue(h.value, h.list !== null);
  const change =
    (b.list === null) !== (h.list === null)
      ? 'other'
      : valueChange(ctx.baseIr, b.value, ctx.headIr, h.value);
  if (change !== 'same') {
    const { field: rule, consequence } = VALUE_CHANGE_RULES[change];
    const scales = change === 'scale-up' || change === 'scale-down';
    const bs = b.value.kind === 'scalar' ? b.value.scale : null;
    const hs = h.value.kind === 'scalar' ? h.value.scale : null;
    emit(rule, `${scales ? `scale ${bs} → ${hs}` : `retyped ${was} → ${now}`}${consequence}`);
  }
  if (b.list && h.list && b.list.itemElement !== h.list.itemElement)
    emit(
      'FIELD_LIST_ITEM_NO_RENAME',
      `items renamed ${b.list.itemElement} → ${h.list.itemElement}: old clients see an empty list`,
    );
  if (b.optional !== h.optional)
    emit(
      b.optional ? 'FIELD_OPTIONAL_TO_REQUIRED' : 'FIELD_REQUIRED_TO_OPTIONAL',
      b.optional
        ? 'now required: servers must set it'
        : 'now optional: old clients fail when it is absent',
    );
  if (b.nullable !== h.nullable)
    emit(
      h.nullable ? 'FIELD_NULLABLE_ADDED' : 'FIELD_NULLABLE_REMOVED',
      h.nullable
        ? 'now nullable: old clients fail on xsi:nil'
        : 'no longer nullable: servers returning null no longer compile',
    );
  if (b.docs.join('\n') !== h.docs.join('\n') || b.gap !== h.gap)
    emit('DOC_CHANGED', 'documentation changed');
}

/** Names not in the longest common subsequence of the two orders: the ones that moved. */
export function moved(base: readonly string[], head: readonly string[]): string[] {
  const common = new Set(base.filter((n) => head.includes(n)));
  const a = base.filter((n) => common.has(n));
  const b = head.filter((n) => common.has(n));
  const len = a.map(() => new Array<number>(b.length + 1).fill(0));
  len.push(new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      len[i]![j] =
        a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < a.length && j < b.length; )
    if (a[i] === b[j]) {
      kept.add(a[i]!);
      i++;
      j++;
    } else if (len[i + 1]![j]! >= len[i]![j + 1]!) i++;
    else j++;
  return b.filter((n) => !kept.has(n));
}
