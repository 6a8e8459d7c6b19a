// Cross-checks of the service-level files: primitives and conventions, the AuthenticationHeader,
// fault codes and states (bindings, endpoint and namespace: cross-check-bindings.ts).
import { uniqueNames, type CheckCtx } from './check-context.js';
import { checkBindings, checkContentType, checkEndpoint } from './cross-check-bindings.js';
import { didYouMean, type SourcePos } from './diagnostics.js';
import { AUDIENCES, FAULT_ROLES, isPrimitive, OPTIONAL_FAULT_ROLES, PRIMITIVES } from './format.js';

export function checkService(c: CheckCtx): void {
  checkCompatibility(c);
  checkEndpoint(c);
  checkBindings(c);
  checkPrimitives(c);
  checkAuthentication(c);
  checkFaults(c);
  checkStates(c);
}

/** The audiences kept: at least one, each once. */
function checkCompatibility(c: CheckCtx): void {
  const k = c.spec.service?.compatibility;
  if (!k) return;
  if (k.audiences.length === 0)
    c.report(
      k.pos,
      'compatibility.audiences is empty',
      `keep at least one of ${AUDIENCES.join(', ')}`,
    );
  for (const a of new Set(k.audiences))
    if (k.audiences.filter((x) => x === a).length > 1)
      c.report(k.pos, `compatibility.audiences names ${a} twice`);
}

function checkPrimitives(c: CheckCtx): void {
  const file = c.spec.primitives;
  if (!file) return;
  uniqueNames(
    file.primitives.map((p) => ({ name: p.name, pos: p.pos })),
    'primitive',
    c.report,
  );
  const listed = new Set(file.primitives.map((p) => p.name));
  for (const p of PRIMITIVES)
    if (!listed.has(p)) c.report(file.pos, `primitive "${p}" is not described`);
  for (const p of file.primitives) {
    if (p.name !== 'decimal' && p.scales !== undefined) c.report(p.pos, `only decimal has scales`);
    if (p.name === 'decimal' && !p.scales?.entries.length)
      c.report(p.pos, 'decimal needs its scales');
    const values = uniqueNames(
      (p.scales?.entries ?? []).map(([, v]) => ({ name: String(v), pos: p.scales!.pos })),
      'scale value',
      c.report,
    );
    for (const v of values)
      if (!/^\d$|^1[0-8]$/.test(v)) c.report(p.scales!.pos, `scale ${v} is not between 0 and 18`);
  }
  const items = c.spec.service?.conventions.plainListItems;
  for (const [k] of items?.entries ?? [])
    if (!isPrimitive(k))
      c.report(items!.pos, `plainListItems names "${k}", which is not a primitive`);
  const omitted = c.spec.service?.conventions.omittedWhenNull;
  if (omitted) {
    c.checkGap(omitted.gap, omitted.pos);
    uniqueNames(
      omitted.values.map((v) => ({ name: v, pos: omitted.pos })),
      'omittedWhenNull value',
      c.report,
    );
  }
}

function checkAuthentication(c: CheckCtx): void {
  const header = c.spec.authentication?.authentication.header;
  if (!header) return;
  uniqueNames(
    header.fields.map((f) => ({ name: f.name, pos: f.pos })),
    'header field',
    c.report,
  );
  for (const n of ['Timestamp', 'Operation', 'Signature', 'APIKey'])
    if (!header.fields.some((f) => f.name === n))
      c.report(header.pos, `the AuthenticationHeader needs the field ${n}`);
  for (const f of header.fields)
    if ((f.name === 'Timestamp') !== (f.format !== undefined))
      c.report(f.pos, `only Timestamp has a format, and it must`);
}

type FaultCodeSpec = NonNullable<CheckCtx['spec']['errors']>['faults']['codes'][number];

function checkFaults(c: CheckCtx): void {
  const faults = c.spec.errors?.faults;
  if (!faults) return;
  uniqueNames(
    faults.codes.map((f) => ({ name: f.code, pos: f.pos })),
    'fault code',
    c.report,
  );
  for (const role of FAULT_ROLES) {
    const found = faults.codes.filter((f) => f.raisedFor === role).length;
    const optional = OPTIONAL_FAULT_ROLES.includes(role);
    if (found > 1 || (found === 0 && !optional))
      c.report(
        faults.pos,
        optional
          ? `at most one code may have raisedFor: ${role} (the engine raises it), found ${found}`
          : `exactly one code needs raisedFor: ${role} (the engine raises it), found ${found}`,
      );
  }
  for (const f of faults.codes)
    if (f.raisedFor === 'internal' && f.message === undefined)
      c.report(
        f.pos,
        `the internal code needs a message: an unexpected error's own text never leaves`,
      );
  const status = (n: number, pos: SourcePos) => {
    if (!Number.isInteger(n) || n < 400 || n > 599)
      c.report(pos, `HTTP status ${n} is not an error status (400-599)`);
  };
  for (const f of faults.codes) {
    if (f.http.length === 0) c.report(f.pos, `fault code ${f.code} needs at least one HTTP status`);
    f.http.forEach((n) => status(n, f.pos));
    checkRetryAfter(c, f);
  }
  [faults.soap11Status, faults.soap12Status.sender, faults.soap12Status.receiver].forEach((n) =>
    status(n, faults.pos),
  );
  faults.transportStatuses.forEach((n) => status(n, faults.pos));
  checkContentType(c.report, faults.httpContentType, faults.pos);
}

function checkStates(c: CheckCtx): void {
  const states = c.spec.states?.states;
  if (!states) return;
  const operations = c.spec.operations?.operations ?? [];
  for (const t of states.transitions) {
    const op = operations.find((o) => o.name === t.trigger);
    if (!op) {
      if (!c.declared.operations.has(t.trigger))
        c.report(
          t.pos,
          `transition trigger "${t.trigger}" is not an operation`,
          didYouMean(
            t.trigger,
            operations.map((o) => o.name),
          ),
        );
    } else if (!op.parameters.some((p) => p.name === t.with))
      c.report(
        t.pos,
        `transition "with: ${t.with}" is not a parameter of ${op.name}`,
        didYouMean(
          t.with,
          op.parameters.map((p) => p.name),
        ),
      );
  }
  for (const id of states.notShown) c.checkGap(id, states.pos);
}

/** Retry-After means something with 503 and 429 only (RFC 9110, RFC 6585), and counts whole seconds. */
function checkRetryAfter(c: CheckCtx, f: FaultCodeSpec): void {
  const s = f.retryAfterSeconds;
  if (s === undefined) return;
  if (!Number.isInteger(s) || s < 0 || s > 86_400)
    c.report(
      f.pos,
      `retryAfterSeconds of ${f.code} must be whole seconds from 0 to 86400, not ${s}`,
    );
  if (!f.http.includes(503) && !f.http.includes(429))
    c.report(
      f.pos,
      `fault code ${f.code} has retryAfterSeconds but neither 503 nor 429 among its HTTP statuses`,
    );
}
