// --verify: the base version's generated client against a stub server of the head version (and
// the head client against a base server), over every binding, for every operation a change
// touches, with full and sparse values. An operation's observed behaviour is then held against
// the worst wire-lax verdict of the changes touching it:
//   breaking  the old client fails or loses a value with full values or a fault;
//   dangerous full values and faults pass, and (confirmed when) sparse values (nil, absent,
//             empty) fail;
//   safe      every call passes with every value arriving.
// The generated client ignores unknown elements and order, so it stands for wire-lax clients.
import { fileURLToPath } from 'node:url';
import type { IrOperation } from '../../generator/ir/model.js';
import type { SpecVersion } from '../input.js';
import { worst, type Change, type Severity } from '../model.js';
import { compareParams, compareResult, type Losses } from './observe.js';
import { FAULT_CODE, loadVersionPackage, type LoadedVersion } from './stubs.js';
import { paramsSample, resultSample, SAMPLES, type Sample } from './values.js';

const TEMPLATES = fileURLToPath(new URL('../../../templates', import.meta.url));

export type Direction = 'old-client/new-server' | 'new-client/old-server';
export type Outcome = 'ok' | 'lost' | 'failed';

export interface Observation {
  readonly direction: Direction;
  readonly operation: string;
  readonly binding: string;
  readonly sample: Sample;
  readonly outcome: Outcome;
  readonly detail: string;
}

export type Verdict = 'confirmed' | 'consistent' | 'contradicted' | 'masked' | 'not observed';

export interface CheckedChange {
  readonly rule: string;
  readonly path: string;
  readonly severity: Severity;
  readonly verdict: Verdict;
  readonly detail: string;
}

export interface VerifyResult {
  readonly observations: readonly Observation[];
  readonly changes: readonly CheckedChange[];
  readonly disagreements: readonly CheckedChange[];
}

export async function verifyChanges(
  base: SpecVersion,
  head: SpecVersion,
  changes: readonly Change[],
  templatesDir = TEMPLATES,
): Promise<VerifyResult> {
  const touched = [...new Set(changes.flatMap((c) => c.operations))].sort();
  if (touched.length === 0) return check(changes, []);
  const [b, h] = await Promise.all([
    loadVersionPackage(base, templatesDir),
    loadVersionPackage(head, templatesDir),
  ]);
  try {
    const observations = [
      ...(await observe(b, h, touched, 'old-client/new-server')),
      ...(await observe(h, b, touched, 'new-client/old-server')),
    ];
    return check(changes, observations);
  } finally {
    await Promise.all([b.dispose(), h.dispose()]);
  }
}

async function observe(
  client: LoadedVersion,
  server: LoadedVersion,
  ops: string[],
  direction: Direction,
) {
  const out: Observation[] = [];
  for (const name of ops) {
    const cop = client.version.ir.operations.find((o) => o.name === name);
    if (!cop) continue; // this client has no such method
    const sop = server.version.ir.operations.find((o) => o.name === name);
    for (const binding of client.version.ir.bindings.map((x) => x.id))
      for (const sample of SAMPLES) {
        const { outcome, detail } = await call(client, server, cop, sop, binding, sample);
        out.push({ direction, operation: name, binding, sample, outcome, detail });
      }
  }
  return out;
}

async function call(
  client: LoadedVersion,
  server: LoadedVersion,
  cop: IrOperation,
  sop: IrOperation | undefined,
  binding: string,
  sample: Sample,
): Promise<{ outcome: Outcome; detail: string }> {
  server.sample = sample;
  server.received = null;
  const params = paramsSample(cop);
  let got: unknown;
  try {
    got = await client.client(server.server.url, binding)[cop.method]!(params);
  } catch (e) {
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    if (sample === 'fault' && sop)
      return (e as { code?: unknown }).code === FAULT_CODE
        ? { outcome: 'ok', detail: '' }
        : { outcome: 'lost', detail: `fault ${FAULT_CODE} sent; the client saw ${detail}` };
    return { outcome: 'failed', detail };
  }
  if (sample === 'fault')
    return { outcome: 'failed', detail: `fault ${FAULT_CODE} sent; the call returned` };
  if (!sop) return { outcome: 'lost', detail: `${cop.name} answered by a server without it` };
  const losses: Losses = [
    ...compareParams(sop, cop, receivedBy(server), params),
    ...compareResult(
      { ir: client.version.ir, op: cop },
      { ir: server.version.ir, op: sop },
      got,
      resultSample(server.version.ir, sop, sample),
    ),
  ];
  return losses.length
    ? { outcome: 'lost', detail: losses.join('; ') }
    : { outcome: 'ok', detail: '' };
}

/** Read through a function: TypeScript would keep `received` narrowed to the null set before the call. */
function receivedBy(server: LoadedVersion): Record<string, unknown> {
  return server.received?.params ?? {};
}

function check(changes: readonly Change[], observations: readonly Observation[]): VerifyResult {
  const forward = observations.filter((o) => o.direction === 'old-client/new-server');
  const expected = new Map<string, Severity>();
  for (const c of changes)
    for (const op of c.operations) {
      const s = c.severities['wire-lax'];
      const was = expected.get(op);
      expected.set(op, was ? worst({ 'wire-lax': was, 'wire-strict': s, typescript: 'safe' }) : s);
    }
  const checked = changes.map((c): CheckedChange => {
    const severity = c.severities['wire-lax'];
    const seen = forward.filter((o) => c.operations.includes(o.operation));
    const base = { rule: c.rule, path: c.path, severity };
    if (seen.length === 0)
      return { ...base, verdict: 'not observed', detail: 'no operation both versions can call' };
    const bad = seen.filter((o) => o.sample !== 'sparse' && o.outcome !== 'ok');
    const sparseFailed = seen.filter((o) => o.sample === 'sparse' && o.outcome === 'failed');
    const anyBad = seen.filter((o) => o.outcome !== 'ok');
    const first = (os: Observation[]) =>
      os[0]
        ? `${os[0].operation} ${os[0].binding} ${os[0].sample}: ${os[0].outcome} ${os[0].detail}`
        : '';
    const masked = c.operations.every((op) => expected.get(op) !== severity);
    const v = (verdict: Verdict, detail: string): CheckedChange => ({ ...base, verdict, detail });
    if (severity === 'breaking')
      return bad.length
        ? v('confirmed', first(bad))
        : v(
            'contradicted',
            `old clients passed on every binding with full values and faults (${seen.length} calls)`,
          );
    if (bad.length)
      return masked
        ? v('masked', `a more severe change on the same operation: ${first(bad)}`)
        : v('contradicted', first(bad));
    if (severity === 'dangerous')
      return sparseFailed.length
        ? v('confirmed', first(sparseFailed))
        : v('consistent', 'full values passed; no sparse value failed');
    if (anyBad.length)
      return masked
        ? v('masked', `a more severe change on the same operation: ${first(anyBad)}`)
        : v('contradicted', first(anyBad));
    return v('confirmed', `${seen.length} calls passed with every value arriving`);
  });
  return {
    observations,
    changes: checked,
    disagreements: checked.filter((c) => c.verdict === 'contradicted'),
  };
}

export function formatVerify(r: VerifyResult): string {
  const lines = r.changes.map(
    (c) =>
      `verify ${c.verdict.padEnd(12)} ${c.severity.padEnd(9)} ${c.path}  [${c.rule}]${c.detail ? `  ${c.detail}` : ''}`,
  );
  const back = r.observations.filter(
    (o) => o.direction === 'new-client/old-server' && o.outcome !== 'ok',
  );
  const ops = [...new Set(back.map((o) => o.operation))];
  if (ops.length)
    lines.push(
      `new clients against old servers: ${ops.length} operation(s) fail or lose values: ${ops.join(', ')}`,
    );
  const count = (v: Verdict) => r.changes.filter((c) => c.verdict === v).length;
  lines.push(
    `verify: ${r.observations.length} calls; ${count('confirmed')} confirmed, ${count('consistent')} consistent, ${count('contradicted')} contradicted, ${count('masked')} masked, ${count('not observed')} not observed`,
  );
  return lines.join('\n');
}
