// Complex types and their fields. Every complex type is reached only through results, so a field
// change is judged as a server-to-client change: what old clients make of what a new server sends.
import type { IrField, IrType } from '../../generator/ir/model.js';
import type { DiffContext } from './context.js';
import {
  describeValue,
  operationsReaching,
  pairByNames,
  sameShape,
  valueChange,
  VALUE_CHANGE_RULES,
} from './shapes.js';
import type { RuleId } from '../rules.js';

export function compareTypes(ctx: DiffContext): void {
  const baseOps = operationsReaching(ctx.baseIr);
  const headOps = operationsReaching(ctx.headIr);
  const opsOf = (b: string, h: string = b) => [
    ...new Set([...(baseOps.get(b) ?? []), ...(headOps.get(h) ?? [])]),
  ];
  for (const [b, h] of ctx.types.pairs) {
    const ops = opsOf(b.name, h.name);
    compareFields(ctx, b, h, ops);
    if (b.name !== h.name)
      typeChange(
        ctx,
        'TYPE_TS_RENAMED',
        h,
        `${b.name} renamed ${h.name} in TypeScript (still ${h.xmlName} in the WSDL): code naming ${b.name} no longer compiles`,
        ops,
        b.name,
      );
    if (b.xmlName !== h.xmlName)
      typeChange(
        ctx,
        'TYPE_XML_RENAMED',
        h,
        `${h.name}: WSDL name ${b.xmlName} → ${h.xmlName}: no message changes; code generated from the WSDL names the old type`,
        ops,
      );
    // Opaque types change what the checker accepts, not the wire or the types.
    if (b.opaque !== h.opaque)
      typeChange(
        ctx,
        'CONFORMANCE_CHANGED',
        h,
        `${h.name} ${h.opaque ? 'made' : 'no longer'} opaque: what the generated conformance suite accepts in it`,
        [],
      );
    if (b.docs.join('\n') !== h.docs.join('\n') || b.section !== h.section || b.gap !== h.gap)
      typeChange(ctx, 'DOC_CHANGED', h, `${h.name}: documentation changed`, []);
  }
  for (const b of ctx.types.removed) {
    const renamed = ctx.types.added.find((t) => sameShape(ctx.baseIr, b.name, ctx.headIr, t.name));
    typeChange(
      ctx,
      'TYPE_NO_REMOVE',
      b,
      `${b.name} removed${renamed ? ` (renamed to ${renamed.name}?)` : ''}: code naming the type no longer compiles`,
      opsOf(b.name),
      b.name,
      'base',
    );
  }
  for (const h of ctx.types.added)
    typeChange(ctx, 'TYPE_ADDED', h, `${h.name} added`, opsOf(h.name));
}

/** A change of type `t` (located in its version), named `path` (its name by default). */
function typeChange(
  ctx: DiffContext,
  rule: RuleId,
  t: IrType,
  message: string,
  operations: string[],
  path = t.name,
  side: 'base' | 'head' = 'head',
) {
  ctx.add({
    rule,
    path,
    side,
    file: t.provenance.file,
    symbol: [t.name],
    message,
    operations,
  });
}

function compareFields(ctx: DiffContext, b: IrType, h: IrType, operations: string[]): void {
  const { pairs, removed, added } = pairByNames(b.fields, h.fields);
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

  // What an old reader does without the element: a field it may miss (optional, or left out when
  // null) reads as absent, any other fails the call.
  const absentRead = (f: IrField) =>
    f.optional || f.omittedWhenNull ? 'silently lose its value' : 'fail';
  for (const [bf, hf] of pairs) {
    if (bf.name !== hf.name)
      emit(
        'FIELD_TS_RENAMED',
        hf,
        'head',
        `renamed from ${bf.name} in TypeScript (still <${hf.xmlName}> on the wire): code reading ${bf.name} no longer compiles`,
      );
    if (bf.xmlName !== hf.xmlName)
      emit(
        'FIELD_XML_RENAMED',
        hf,
        'head',
        `element <${bf.xmlName}> → <${hf.xmlName}> on the wire: old clients ${absentRead(bf)}`,
      );
    compareField(ctx, bf, hf, (rule, message) => emit(rule, hf, 'head', message));
  }
  removed.forEach((bf) => {
    const i = b.fields.indexOf(bf);
    const twin =
      added.find((a) => h.fields.indexOf(a) === i && sameField(ctx, bf, a)) ??
      added.find((a) => sameField(ctx, bf, a));
    const readers = `clients reading it ${absentRead(bf)}`;
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
  // The wire order is the elements': a field renamed only in TypeScript has not moved.
  if (b.wireOrderKnown && h.wireOrderKnown) {
    const byWire = new Map(h.fields.map((f) => [f.xmlName, f]));
    for (const name of moved(
      b.fields.map((f) => f.xmlName),
      h.fields.map((f) => f.xmlName),
    ))
      emit(
        'FIELD_NO_MOVE',
        byWire.get(name)!,
        'head',
        'moved in the sequence: strict clients reject the new order',
      );
  }
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
      : valueChange(ctx.baseIr, b.value, ctx.headIr, h.value, ctx.continues);
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
