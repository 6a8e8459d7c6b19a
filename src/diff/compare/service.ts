// Service-wide facts: version, endpoint, namespace, bindings, authentication, faults, gaps. They
// reach every operation present in both versions.
import type { DiffContext, Side } from './context.js';
import type { RuleId } from '../rules.js';

export function compareService(ctx: DiffContext): void {
  const b = ctx.baseIr;
  const h = ctx.headIr;
  const inHead = new Set(h.operations.map((o) => o.name));
  const all = b.operations.map((o) => o.name).filter((n) => inHead.has(n));
  const at: At = (rule, side, file, symbol, path, message, ops = all) =>
    ctx.add({ rule, path, side, file, symbol, message: `${path} ${message}`, operations: ops });
  const service = 'spec/service.yaml';

  if (b.service.version !== h.service.version)
    at(
      'INTERFACE_VERSION_CHANGED',
      'head',
      service,
      ['.version'],
      'service.version',
      `${b.service.version} → ${h.service.version}`,
      [],
    );
  if (b.service.endpointPath !== h.service.endpointPath)
    at(
      'ENDPOINT_PATH_NO_CHANGE',
      'head',
      service,
      ['.endpointPath'],
      'service.endpointPath',
      `${b.service.endpointPath} → ${h.service.endpointPath}: old clients post to an address that no longer answers`,
    );
  if (b.service.namespaceRule !== h.service.namespaceRule)
    at(
      'NAMESPACE_NO_CHANGE',
      'head',
      service,
      ['.namespace'],
      'service.namespace',
      `${b.service.namespaceRule} → ${h.service.namespaceRule}: old clients' elements are in another namespace`,
    );
  if (
    b.service.title !== h.service.title ||
    b.service.doc !== h.service.doc ||
    b.service.wsdlServiceName !== h.service.wsdlServiceName
  )
    at(
      'DOC_CHANGED',
      'head',
      service,
      ['.service'],
      'service',
      'title, description or WSDL service name changed',
      [],
    );

  compareOmitted(ctx, at);
  const kept = (x: typeof b) => x.compatibility.audiences.join(', ');
  if (kept(b) !== kept(h))
    at(
      'DOC_CHANGED',
      'head',
      service,
      ['.compatibility'],
      'compatibility.audiences',
      `${kept(b)} → ${kept(h)}: the clients the package version promises to keep`,
      [],
    );
  compareBindings(ctx, at);
  compareAuth(ctx, at);
  compareFaults(ctx, at);
  compareConformance(ctx, at);
  compareGaps(ctx, at);
}

/**
 * The entries of two lists, paired by key (the n-th of a key with the n-th: a source may read one
 * operation twice), that differ: [key, base entry, head entry], undefined where one side lacks it.
 */
function changedEntries<T>(
  base: readonly T[],
  head: readonly T[],
  key: (x: T) => string,
): [string, T | undefined, T | undefined][] {
  const keyed = (list: readonly T[]) => {
    const seen = new Map<string, number>();
    return new Map(
      list.map((x) => {
        const k = key(x);
        const n = seen.get(k) ?? 0;
        seen.set(k, n + 1);
        return [n === 0 ? k : `${k}#${n + 1}`, x] as const;
      }),
    );
  };
  const [kb, kh] = [keyed(base), keyed(head)];
  return [...new Set([...kb.keys(), ...kh.keys()])]
    .map((k) => [k, kb.get(k), kh.get(k)] as [string, T | undefined, T | undefined])
    .filter(([, x, y]) => JSON.stringify(x) !== JSON.stringify(y));
}

const what = (x: unknown, y: unknown) =>
  x === undefined ? 'added' : y === undefined ? 'removed' : 'changed';

/** gaps.yaml: one change per decision, at its entry. */
function compareGaps(ctx: DiffContext, at: At): void {
  for (const [id, x, y] of changedEntries(ctx.baseIr.gaps, ctx.headIr.gaps, (g) => g.id))
    at(
      'DOC_CHANGED',
      y === undefined ? 'base' : 'head',
      'spec/gaps.yaml',
      ['.gaps', id],
      `gaps.${id}`,
      `${what(x, y)}: the decision on what the document does not show`,
      [],
    );
}

/** Entries of spec/conformance.yaml by key: values by name, sources and writes by operation. */
function compareConformance(ctx: DiffContext, at: At): void {
  const b = ctx.baseIr.conformance;
  const h = ctx.headIr.conformance;
  const section = <T>(
    name: string,
    base: readonly T[],
    head: readonly T[],
    key: (x: T) => string,
  ) => {
    for (const [k, x, y] of changedEntries(base, head, key))
      at(
        'CONFORMANCE_CHANGED',
        y === undefined ? 'base' : 'head',
        'spec/conformance.yaml',
        [`.${name}`, k.replace(/#\d+$/, '')],
        `conformance.${name}.${k}`,
        `${what(x, y)}: how the generated conformance suite finds values or what it checks`,
        [],
      );
  };
  section('values', b.values, h.values, (v) => v.name);
  section('sources', b.sources, h.sources, (s) => s.operation);
  section('writes', b.writes, h.writes, (s) => s.operation);
  for (const [name, x, y] of [
    ['checks', b.checks, h.checks],
    ['hostile', b.hostile, h.hostile],
  ] as const)
    for (const k of Object.keys({ ...x, ...y }))
      if (
        JSON.stringify((x as Record<string, unknown>)[k]) !==
        JSON.stringify((y as Record<string, unknown>)[k])
      )
        at(
          'CONFORMANCE_CHANGED',
          'head',
          'spec/conformance.yaml',
          [`.${name}`, `.${k}`],
          `conformance.${name}.${k}`,
          'changed: what the generated conformance suite checks',
          [],
        );
}

type At = (
  rule: RuleId,
  side: Side,
  file: string,
  symbol: string[],
  path: string,
  message: string,
  ops?: string[],
) => void;

/** conventions.omittedWhenNull: the kinds of value a server may leave out when it has none. */
function compareOmitted(ctx: DiffContext, at: At): void {
  const b = ctx.baseIr.service.omittedWhenNull;
  const h = ctx.headIr.service.omittedWhenNull;
  const bk = b?.values ?? [];
  const hk = h?.values ?? [];
  const file = 'spec/service.yaml';
  const path = 'conventions.omittedWhenNull';
  const added = hk.filter((k) => !bk.includes(k));
  const removed = bk.filter((k) => !hk.includes(k));
  if (added.length)
    at(
      'OMITTED_WHEN_NULL_WIDENED',
      'head',
      file,
      ['.omittedWhenNull'],
      path,
      `now ${added.join(', ')}: a server may leave such a value out; old clients fail when it does, and code reading received results must handle its absence`,
    );
  if (removed.length)
    at(
      'OMITTED_WHEN_NULL_NARROWED',
      'head',
      file,
      ['.omittedWhenNull'],
      path,
      `no longer ${removed.join(', ')}: servers always send such a value; received types require it`,
    );
  if (b && h && b.gap !== h.gap)
    at('DOC_CHANGED', 'head', file, ['.omittedWhenNull'], path, 'gap changed', []);
}

function compareBindings(ctx: DiffContext, at: At): void {
  const file = 'spec/service.yaml';
  const raw = (side: Side, id: string) =>
    (side === 'base' ? ctx.base : ctx.head).raw.service.bindings.find((x) => x.id === id)!;
  const inHead = new Map(ctx.headIr.bindings.map((x) => [x.id, x]));
  const inBase = new Set(ctx.baseIr.bindings.map((x) => x.id));
  for (const b of ctx.baseIr.bindings) {
    const h = inHead.get(b.id);
    const path = `bindings.${b.id}`;
    if (!h) {
      at('BINDING_NO_REMOVE', 'base', file, [b.id], path, 'removed: clients on it fail');
      continue;
    }
    const shape = (x: typeof b) =>
      `${x.kind} ${x.method} ${x.requestContentType ?? '-'} ${x.responseContentType}`;
    if (shape(b) !== shape(h))
      at(
        'BINDING_NO_CHANGE',
        'head',
        file,
        [b.id],
        path,
        `${shape(b)} → ${shape(h)}: old clients' requests are refused`,
      );
    const rb = raw('base', b.id);
    const rh = raw('head', b.id);
    if (rb.path !== rh.path)
      at(
        'BINDING_PATH_NO_CHANGE',
        'head',
        file,
        [b.id, '.path'],
        path,
        `path ${rb.path} → ${rh.path}: old clients call an address that no longer answers`,
      );
    if ((rb.soapAction ?? null) !== (rh.soapAction ?? null))
      at(
        'SOAP_ACTION_NO_CHANGE',
        'head',
        file,
        [b.id, '.soapAction'],
        path,
        `SOAPAction ${rb.soapAction ?? '(none)'} → ${rh.soapAction ?? '(none)'}: old clients' SOAPAction disagrees with the body`,
      );
    if (b.title !== h.title || rb.request !== rh.request || rb.response !== rh.response)
      at('DOC_CHANGED', 'head', file, [b.id], path, 'documentation changed', []);
  }
  for (const h of ctx.headIr.bindings)
    if (!inBase.has(h.id))
      at('BINDING_ADDED', 'head', file, [h.id], `bindings.${h.id}`, 'added', []);
}

function compareAuth(ctx: DiffContext, at: At): void {
  const b = ctx.baseIr.auth;
  const h = ctx.headIr.auth;
  const file = 'spec/authentication.yaml';
  const wire = (x: typeof b) =>
    JSON.stringify([
      x.headerElement,
      x.fields.map((f) => f.name),
      x.timestampFormat,
      x.httpHeaders,
    ]);
  if (wire(b) !== wire(h))
    at(
      'AUTH_NO_CHANGE',
      'head',
      file,
      ['.header'],
      'authentication',
      `${wire(b)} → ${wire(h)}: old clients' credentials are refused`,
    );
  if (b.clockSkewSeconds !== h.clockSkewSeconds)
    at(
      'AUTH_WINDOW_CHANGED',
      'head',
      file,
      ['.window'],
      'authentication.window',
      `clock skew ${b.clockSkewSeconds} s → ${h.clockSkewSeconds} s`,
      [],
    );
  if (JSON.stringify(b.fields.map((f) => f.docs)) !== JSON.stringify(h.fields.map((f) => f.docs)))
    at('DOC_CHANGED', 'head', file, ['.header'], 'authentication', 'documentation changed', []);
}

function compareFaults(ctx: DiffContext, at: At): void {
  const file = 'spec/errors.yaml';
  const b = ctx.baseIr;
  const h = ctx.headIr;
  if (b.faultDetailElement !== h.faultDetailElement)
    at(
      'FAULT_DETAIL_NO_CHANGE',
      'head',
      file,
      ['.detailElement'],
      'faults.detailElement',
      `${b.faultDetailElement} → ${h.faultDetailElement}: old clients find no fault code`,
    );
  const statuses = (x: typeof b) => JSON.stringify(x.soapFaultStatuses);
  if (statuses(b) !== statuses(h))
    at(
      'FAULT_CODE_NO_REMAP',
      'head',
      file,
      ['.soap11Status'],
      'faults.soapStatuses',
      `${statuses(b)} → ${statuses(h)}: clients branching on the old HTTP status misjudge SOAP faults`,
      [],
    );
  const kept = (x: typeof b) => x.faultTransportStatuses.join('/');
  if (kept(b) !== kept(h))
    at(
      'FAULT_CODE_NO_REMAP',
      'head',
      file,
      ['.transportStatuses'],
      'faults.transportStatuses',
      `SOAP faults keep HTTP ${kept(b) || 'none'} → ${kept(h) || 'none'}: clients branching on the old status misjudge SOAP faults`,
      [],
    );
  const inHead = new Map(h.faults.map((f) => [f.code, f]));
  const inBase = new Set(b.faults.map((f) => f.code));
  for (const bf of b.faults) {
    const hf = inHead.get(bf.code);
    const path = `faults.${bf.code}`;
    if (!hf) {
      at(
        'FAULT_CODE_NO_REMOVE',
        'base',
        file,
        [bf.code],
        path,
        'removed: code handling it is dead',
        [],
      );
      continue;
    }
    const carried = (f: typeof bf) => `${f.soap11} ${f.soap12} HTTP ${f.httpStatuses.join('/')}`;
    if (carried(bf) !== carried(hf))
      at(
        'FAULT_CODE_NO_REMAP',
        'head',
        file,
        [bf.code],
        path,
        `${carried(bf)} → ${carried(hf)}: clients branching on the old carriage misjudge it`,
        [],
      );
    if (bf.retryAfterSeconds !== hf.retryAfterSeconds)
      at(
        'FAULT_RETRY_AFTER_CHANGED',
        'head',
        file,
        [bf.code],
        path,
        `Retry-After ${bf.retryAfterSeconds ?? 'none'} → ${hf.retryAfterSeconds ?? 'none'}`,
        [],
      );
    if (bf.doc !== hf.doc)
      at('DOC_CHANGED', 'head', file, [bf.code], path, 'documentation changed', []);
  }
  for (const hf of h.faults)
    if (!inBase.has(hf.code))
      at(
        'FAULT_CODE_ADDED',
        'head',
        file,
        [hf.code],
        `faults.${hf.code}`,
        'added: old clients meet a code they do not know',
        [],
      );
}
