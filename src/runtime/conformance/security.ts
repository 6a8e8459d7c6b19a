// Authentication refusals, each request signed with exactly the values it claims to test (a stale
// timestamp correctly signed, an Operation naming another operation correctly signed, a replay of
// a correctly signed request on the same and on another binding). Refusals are document-level
// where the document says so (SOAP header, signature, Operation); the time window, replays and
// HTTP credentials are gap decisions. The form of every refusal (status, fault code, detail) is
// checked apart, at level evgen.
import type { AuthValues, Binding } from '../transport/index.js';
import { bindingDef, isSoap, paramsFor, type Ctx } from './context.js';
import type { CheckFamily, OperationSpec } from './model.js';
import { REFUSALS as REFUSAL, type RefusalDef } from './refusals.js';
import { CHECK_NAMES, resultOf, skipped, type ConformanceResult } from './results.js';
import { describe, faultOf, send, signed, type Raw } from './wire.js';

const HOUR_MS = 3_600_000;

/**
 * A read to send refusals to: one the binding answered with 200 (else any callable one, when the
 * response checks did not run), fewest parameters first; null when none.
 */
export function probeOperation(c: Ctx, binding: Binding): OperationSpec | null {
  const answered = c.answered.get(binding);
  const reads = c.model.operations.filter(
    (op) =>
      !op.mutating && !paramsFor(c, op).missing.length && (!answered || answered.has(op.name)),
  );
  return [...reads].sort((a, b) => a.params.length - b.params.length)[0] ?? null;
}

/** A refusal answer kept for the fault-form check: which check, and the fault code it must carry. */
export interface Refused {
  readonly check: string;
  /** The binding the refusal came on (a replay goes to another one). */
  readonly binding: Binding;
  readonly raw: Raw;
  readonly code: string;
}

interface Refusal extends RefusalDef {
  readonly auth: (c: Ctx, op: OperationSpec) => Promise<AuthValues | null>;
}

const otherOperation = (c: Ctx, op: OperationSpec) =>
  c.model.operations.find((o) => o.name !== op.name)!.name;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

const REFUSALS: readonly Refusal[] = [
  {
    ...REFUSAL.wrongSignature,
    auth: async (c, op) => ({
      ...(await signed(c, op.name, c.clock.next())),
      Signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    }),
  },
  {
    ...REFUSAL.unknownKey,
    auth: async (c, op) => ({
      ...(await signed(c, op.name, c.clock.next())),
      APIKey: `unknown-${c.o.apiKey}`,
    }),
  },
  { ...REFUSAL.noCredentials, auth: () => Promise.resolve(null) },
  {
    ...REFUSAL.operationHeader,
    auth: (c, op) => signed(c, otherOperation(c, op), c.clock.next()),
  },
  { ...REFUSAL.staleTimestamp, auth: (c, op) => signed(c, op.name, at(-HOUR_MS)) },
  { ...REFUSAL.futureTimestamp, auth: (c, op) => signed(c, op.name, at(HOUR_MS)) },
  {
    ...REFUSAL.malformedTimestamp,
    auth: (c, op) => signed(c, op.name, c.clock.next().replace('T', ' ')),
  },
];

/** Failures when `raw` is not a refusal in the binding's form. */
export function refusalFailures(c: Ctx, binding: Binding, raw: Raw): string[] {
  if (raw.noAnswer !== undefined) return [describe(c, raw)];
  if (raw.status === 200) return [`accepted: HTTP 200`];
  if (isSoap(c, binding) && !faultOf(c, raw))
    return [`refused without a SOAP Fault: ${describe(c, raw)}`];
  return [];
}

/** The service's binding after `binding` (the first after the last): where a replay is sent. */
function nextBinding(c: Ctx, binding: Binding): Binding {
  const ids = c.o.wire.bindings.map((b) => b.id);
  return ids[(ids.indexOf(binding) + 1) % ids.length]!;
}

const levelRuns = (c: Ctx, family: CheckFamily) =>
  c.level === 'evgen' || c.model.checks[family].level === 'document';

export async function checkAuthentication(
  c: Ctx,
  binding: Binding,
  out: ConformanceResult[],
  refused: Refused[],
): Promise<void> {
  const probe = probeOperation(c, binding);
  const soap = isSoap(c, binding);
  const group = 'Authentication';
  const replayedOn = nextBinding(c, binding);
  const replays = [REFUSAL.replay.check, `refuses a request replayed on ${replayedOn}`];
  const all: { check: string; family: CheckFamily }[] = [
    ...REFUSALS.map((r) => ({ check: r.check, family: r.family[soap ? 0 : 1] })),
    ...replays.map((check) => ({ check, family: 'timestampWindow' as const })),
  ].filter((r) => levelRuns(c, r.family));
  const baseline = probe
    ? await send(c, probe.name, paramsFor(c, probe).params, binding)
    : undefined;
  if (!probe || baseline?.status !== 200) {
    const reason = probe
      ? `${probe.name}, correctly signed, was not answered: ${describe(c, baseline!)}`
      : 'no read operation can be called with the values found';
    for (const r of all)
      out.push(skipped(c.model, r.family, { group, binding, check: r.check }, 'skip', reason));
    return;
  }
  const params = paramsFor(c, probe).params;
  const fault = (family: CheckFamily) =>
    c.model.checks[family].fault ?? c.model.checks.faultForm.fault!;
  for (const r of REFUSALS) {
    const family = r.family[soap ? 0 : 1];
    if (!levelRuns(c, family)) continue;
    const raw = await send(c, probe.name, params, binding, await r.auth(c, probe));
    if (raw.status !== 200) refused.push({ check: r.check, binding, raw, code: fault(family) });
    out.push(
      resultOf(
        c.model,
        family,
        { group, binding, check: r.check },
        refusalFailures(c, binding, raw),
      ),
    );
  }
  if (!levelRuns(c, 'timestampWindow')) return;
  const targets: Binding[] = [binding, replayedOn];
  for (const [i, target] of targets.entries()) {
    const values = await signed(c, probe.name, c.clock.next());
    const first = await send(c, probe.name, params, binding, values);
    const again = await send(c, probe.name, params, target, values);
    const failures =
      first.status !== 200
        ? [`the original request was not answered: ${describe(c, first)}`]
        : refusalFailures(c, target, again);
    if (again.status !== 200)
      refused.push({
        check: replays[i]!,
        binding: target,
        raw: again,
        code: fault('timestampWindow'),
      });
    out.push(
      resultOf(c.model, 'timestampWindow', { group, binding, check: replays[i]! }, failures),
    );
  }
}

/**
 * The failures of one refusal against the form the service's fault table gives its code: status,
 * SOAP fault code (its local part: a server may bind the envelope namespace to any prefix), and
 * the code in the detail. `expected` null: the code the answer names, when the table has it (an
 * answer seen without knowing why it was refused, as a proxy sees one).
 */
export function faultFailures(
  c: Ctx,
  binding: Binding,
  raw: Raw,
  expected: string | null,
): string[] {
  const { faults } = c.o.wire;
  const failures: string[] = [];
  const f = faultOf(c, raw);
  const named = faults.codes.some((x) => x.code === f?.detailCode) ? f?.detailCode : undefined;
  const want = expected ?? named;
  const code = faults.codes.find((x) => x.code === want);
  if (want !== undefined && !code)
    return [`the model expects ${want}, which the service's fault table does not have`];
  if (!f) return [`no fault in the answer: ${describe(c, raw)}`];
  if (!code)
    return [
      `${faults.detailElement} ${f.detailCode ?? 'missing'}, expected one of ${faults.codes.map((x) => x.code).join(', ')}`,
    ];
  const on = bindingDef(c, binding);
  const v11 = on.soapVersion === '1.1';
  const status =
    on.kind === 'http' ? code.httpStatuses : [v11 ? code.soap11Status : code.soap12Status];
  if (!status.includes(raw.status))
    failures.push(`HTTP status ${raw.status}, expected ${status.join(' or ')}`);
  if (on.kind === 'soap') {
    const wantCode = (v11 ? code.soap11 : code.soap12).replace(/^[^:]*/, '');
    if (!f.soapCode?.endsWith(wantCode))
      failures.push(`fault code ${f.soapCode || 'missing'}, expected …${wantCode}`);
    if (!v11 && f.lang === undefined) failures.push('Reason/Text has no xml:lang');
  }
  if (f.detailCode !== code.code)
    failures.push(`${faults.detailElement} ${f.detailCode ?? 'missing'}, expected ${code.code}`);
  return failures;
}

/** Every refusal in the form the service's fault table gives (see faultFailures). */
export function checkFaultForm(
  c: Ctx,
  binding: Binding,
  refused: readonly Refused[],
): ConformanceResult {
  const failures = refused.flatMap((r) =>
    faultFailures(c, r.binding, r.raw, r.code).map((s) => `${r.check}: ${s}`),
  );
  return resultOf(
    c.model,
    'faultForm',
    { group: 'Errors', binding, check: CHECK_NAMES.faultForm },
    failures,
  );
}
