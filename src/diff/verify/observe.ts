// What a receiver made of what a sender sent, judged through both versions' types: every value
// the receiver's model holds must be the sender's value for the same name (compared as XML text,
// so a decimal read at a larger scale or an int read as a string is the same value). A field the
// receiver knows but the sender's version no longer has counts as lost.
import type { IrField, IrOperation, IrSpec, IrValue } from '../../generator/ir/model.js';

/** Paths whose values did not arrive. */
export type Losses = string[];

export function lexical(v: unknown): string {
  const s = String(v);
  return /^-?\d+\.\d+$/.test(s) ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

interface Side {
  readonly ir: IrSpec;
}

export function compareParams(
  receiver: IrOperation,
  sender: IrOperation,
  received: Record<string, unknown>,
  sent: Record<string, unknown>,
): Losses {
  const out: Losses = [];
  for (const p of sender.parameters) {
    const path = `${sender.name}.${p.name}`;
    if (!receiver.parameters.some((r) => r.name === p.name))
      out.push(`${path} (dropped by the server)`);
    else if (lexical(received[p.name]) !== lexical(sent[p.name]))
      out.push(`${path} (sent ${lexical(sent[p.name])}, received ${lexical(received[p.name])})`);
  }
  return out;
}

export function compareResult(
  recv: Side & { op: IrOperation },
  send: Side & { op: IrOperation },
  received: unknown,
  sent: unknown,
): Losses {
  const out: Losses = [];
  const rr = recv.op.result;
  const sr = send.op.result;
  const path = `${recv.op.name}Result`;
  if (rr.kind === 'none') return out;
  if (sr.kind === 'none') return [`${path} (not sent)`];
  const value = (r: typeof rr): IrValue | null =>
    r.kind === 'type'
      ? { kind: 'complex', typeName: r.typeName }
      : r.kind === 'list'
        ? r.value
        : null;
  const rv = value(rr)!;
  const sv = value(sr)!;
  if (rr.kind === 'list' && sr.kind === 'list')
    compareList(recv.ir, send.ir, rv, sv, received, sent, path, out);
  else if (rr.kind === 'type' && sr.kind === 'type')
    compareValue(recv.ir, send.ir, rv, sv, received, sent, path, out);
  else out.push(`${path} (one value and a list)`);
  return out;
}

function compareList(
  ri: IrSpec,
  si: IrSpec,
  rv: IrValue,
  sv: IrValue,
  received: unknown,
  sent: unknown,
  path: string,
  out: Losses,
) {
  const r = Array.isArray(received) ? received : [];
  const s = Array.isArray(sent) ? sent : [];
  if (r.length !== s.length) out.push(`${path} (${s.length} item(s) sent, ${r.length} received)`);
  else r.forEach((x, i) => compareValue(ri, si, rv, sv, x, s[i], `${path}[${i}]`, out));
}

function compareValue(
  ri: IrSpec,
  si: IrSpec,
  rv: IrValue,
  sv: IrValue,
  received: unknown,
  sent: unknown,
  path: string,
  out: Losses,
) {
  if (received === null || received === undefined || sent === null || sent === undefined) {
    if (received !== sent) out.push(`${path} (sent ${String(sent)}, received ${String(received)})`);
    return;
  }
  if (rv.kind === 'scalar' || sv.kind === 'scalar') {
    if (rv.kind !== sv.kind || lexical(received) !== lexical(sent))
      out.push(`${path} (sent ${JSON.stringify(sent)}, received ${JSON.stringify(received)})`);
    return;
  }
  const rt = ri.types.find((t) => t.name === rv.typeName)!;
  const st = si.types.find((t) => t.name === sv.typeName)!;
  const r = received as Record<string, unknown>;
  const s = sent as Record<string, unknown>;
  for (const f of rt.fields) {
    const sf = st.fields.find((x) => x.name === f.name);
    const at = `${path}/${f.name}`;
    if (!sf) out.push(`${at} (no longer sent)`);
    else compareField(ri, si, f, sf, r[f.name], s[f.name], at, out);
  }
}

function compareField(
  ri: IrSpec,
  si: IrSpec,
  rf: IrField,
  sf: IrField,
  received: unknown,
  sent: unknown,
  path: string,
  out: Losses,
) {
  if ((rf.list === null) !== (sf.list === null)) out.push(`${path} (one value and a list)`);
  else if (rf.list && Array.isArray(sent))
    compareList(ri, si, rf.value, sf.value, received, sent, path, out);
  else compareValue(ri, si, rf.value, sf.value, received, sent, path, out);
}
