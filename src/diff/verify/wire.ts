// The wire-lax audience, observed: each version's generated client calls the other's stub server
// on every binding with every sample, and the observations are held against the verdicts:
//   breaking  the old client fails or loses a value with full values or a fault;
//   dangerous full values and faults pass, and (confirmed when) sparse values (nil, absent,
//             empty) fail;
//   safe      every call passes with every value arriving.
// The generated client ignores unknown elements and order, so it stands for wire-lax clients.
import type { IrOperation } from '../../generator/ir/model.js';
import type { Change } from '../model.js';
import {
  judge,
  notObserved,
  worstPerOperation,
  type CheckedChange,
  type Direction,
  type Observation,
  type Outcome,
} from './model.js';
import { compareParams, compareResult, type Losses } from './observe.js';
import { FAULT_CODE, type LoadedVersion } from './stubs.js';
import { paramsSample, resultSample, SAMPLES, type Sample } from './values.js';

export async function observe(
  client: LoadedVersion,
  server: LoadedVersion,
  ops: readonly string[],
  direction: Direction,
): Promise<Observation[]> {
  const out: Observation[] = [];
  for (const name of ops) {
    const cop = client.version.ir.operations.find((o) => o.name === name);
    if (!cop) continue; // this client has no such method
    const sop = server.version.ir.operations.find((o) => o.name === name);
    for (const binding of client.version.ir.bindings.map((x) => x.id))
      for (const sample of SAMPLES) {
        const { outcome, detail } = await call(
          client,
          server,
          cop,
          sop,
          binding,
          sample,
          direction,
        );
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
  direction: Direction,
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
      { ir: client.version.ir, op: cop, newer: direction === 'new-client/old-server' },
      { ir: server.version.ir, op: sop, newer: direction === 'old-client/new-server' },
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

const describe = (o: Observation) =>
  `${o.operation} ${o.binding} ${o.sample}: ${o.outcome} ${o.detail}`;

export function checkWire(
  changes: readonly Change[],
  observations: readonly Observation[],
): CheckedChange[] {
  const forward = observations.filter((o) => o.direction === 'old-client/new-server');
  const worst = worstPerOperation(changes, 'wire-lax');
  return changes.map((c): CheckedChange => {
    const seen = forward.filter((o) => c.operations.includes(o.operation));
    if (seen.length === 0) return notObserved(c, 'wire-lax', 'no operation old clients can call');
    const typical = seen.filter((o) => o.sample !== 'sparse' && o.outcome !== 'ok').map(describe);
    return judge(c, 'wire-lax', worst, {
      breaking: typical,
      typical,
      some: seen.filter((o) => o.sample === 'sparse' && o.outcome === 'failed').map(describe),
      any: seen.filter((o) => o.outcome !== 'ok').map(describe),
      passed: {
        breaking: `old clients passed on every binding with full values and faults (${seen.length} calls)`,
        dangerous: 'full values and faults passed; no sparse value failed',
        safe: `${seen.length} calls passed with every value arriving`,
      },
    });
  });
}
