// What a receiver made of what a sender sent, judged through both versions' types: every value
// the receiver's model holds must be the sender's value for the same name (compared as XML text,
// so a decimal read at a larger scale or an int read as a string is the same value). A field the
// receiver knows but a newer sender no longer has counts as lost; one an older sender never had is
// lost only when the receiver requires it (an optional one was never sent, so nothing is lost).
import type { IrOperation, IrSpec, IrValue } from '../../generator/ir/model.js';

/** Paths whose values did not arrive. */
export type Losses = string[];

export function lexical(v: unknown): string {
  const s = String(v);
  return /^-?\d+\.\d+$/.test(s) ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

interface Side {
  readonly ir: IrSpec;
  /** The head version (new clients against old servers: the receiver). */
  readonly newer: boolean;
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
    // Matched on the wire; each side holds the value under its own TypeScript name.
    const r = receiver.parameters.find((x) => x.xmlName === p.xmlName);
    if (!r) out.push(`${path} (dropped by the server)`);
    else if (lexical(received[r.name]) !== lexical(sent[p.name]))
      out.push(`${path} (sent ${lexical(sent[p.name])}, received ${lexical(received[r.name])})`);
  }
  return out;
}

export function compareResult(
  recv: Side & { op: IrOperation },
  send: Side & { op: IrOperation },
  received: unknown,
  sent: unknown,
): Losses {
  const w: Walk = { ri: recv.ir, si: send.ir, receiverNewer: recv.newer, out: [] };
  const rr = recv.op.result;
  const sr = send.op.result;
  const path = `${recv.op.name}Result`;
  if (rr.kind === 'none') return w.out;
  if (sr.kind === 'none') return [`${path} (not sent)`];
  if (rr.kind === 'list' && sr.kind === 'list')
    compareList(w, rr.value, sr.value, received, sent, path);
  else if (rr.kind === 'value' && sr.kind === 'value')
    compareValue(w, rr.value, sr.value, received, sent, path);
  else w.out.push(`${path} (one value and a list)`);
  return w.out;
}

/** The receiver's and the sender's IR, and the losses found so far. */
interface Walk {
  readonly ri: IrSpec;
  readonly si: IrSpec;
  readonly receiverNewer: boolean;
  readonly out: Losses;
}

function compareList(
  w: Walk,
  rv: IrValue,
  sv: IrValue,
  received: unknown,
  sent: unknown,
  path: string,
) {
  const r = Array.isArray(received) ? received : [];
  const s = Array.isArray(sent) ? sent : [];
  if (r.length !== s.length) w.out.push(`${path} (${s.length} item(s) sent, ${r.length} received)`);
  else r.forEach((x, i) => compareValue(w, rv, sv, x, s[i], `${path}[${i}]`));
}

function compareValue(
  w: Walk,
  rv: IrValue,
  sv: IrValue,
  received: unknown,
  sent: unknown,
  path: string,
) {
  if (received === null || received === undefined || sent === null || sent === undefined) {
    if (received !== sent)
      w.out.push(`${path} (sent ${String(sent)}, received ${String(received)})`);
    return;
  }
  if (rv.kind === 'scalar' || sv.kind === 'scalar') {
    if (rv.kind !== sv.kind || lexical(received) !== lexical(sent))
      w.out.push(`${path} (sent ${JSON.stringify(sent)}, received ${JSON.stringify(received)})`);
    return;
  }
  const rt = w.ri.types.find((t) => t.name === rv.typeName)!;
  const st = w.si.types.find((t) => t.name === sv.typeName)!;
  const r = received as Record<string, unknown>;
  const s = sent as Record<string, unknown>;
  for (const f of rt.fields) {
    // Matched on the wire; each side holds the value under its own TypeScript name.
    const sf = st.fields.find((x) => x.xmlName === f.xmlName);
    const at = `${path}/${f.name}`;
    if (!sf) {
      if (!w.receiverNewer) w.out.push(`${at} (no longer sent)`);
      else if (!f.optional) w.out.push(`${at} (required, never sent by the older version)`);
    } else if ((f.list === null) !== (sf.list === null)) w.out.push(`${at} (one value and a list)`);
    else if (f.list && Array.isArray(s[sf.name]))
      compareList(w, f.value, sf.value, r[f.name], s[sf.name], at);
    else compareValue(w, f.value, sf.value, r[f.name], s[sf.name], at);
  }
}
