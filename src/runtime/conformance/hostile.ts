// Opt-in hostile input: a body over the limit, nesting deeper than any document needs, a DTD with
// entities, a SOAPAction naming another operation, malformed XML, fault texts free of stack traces
// and file paths, and requests answered while another request is held open.
import { writeSoapEnvelope } from '../xml/index.js';
import { soapRequestHeaders, type Binding, type BindingDef } from '../transport/index.js';
import { bindingDef, paramsFor, type Ctx } from './context.js';
import type { CheckFamily, OperationSpec } from './model.js';
import { REFUSALS } from './refusals.js';
import { CHECK_NAMES, resultOf, skipped, type ConformanceResult } from './results.js';
import { probeOperation, refusalFailures, type Refused } from './security.js';
import { describe, faultOf, fetchRaw, prepare, send, signed, type Raw } from './wire.js';

const MARKER = 'evgen-entity-expanded';
const SLOT = 'evgen-entity-slot';

/** A stack frame (JavaScript, .NET, Java, Python) or a file path in a fault's text. */
const LEAKS: readonly [RegExp, string][] = [
  [/\bat [\w.$<>[\]]+ \(?[^\s()]*:\d+:\d+\)?/, 'a JavaScript stack frame'],
  [/\bat [\w.]+\.[\w<>]+\(.*\)( in .*:line \d+)?/, 'a .NET or Java stack frame'],
  [/File "[^"]+", line \d+/, 'a Python stack frame'],
  [/(^|[\s"'(=])(\/[\w.-]+){2,}\.\w+/, 'a file path'],
  [/\b[A-Za-z]:\\[\w\\. -]+/, 'a Windows file path'],
];

export function leaks(text: string): string[] {
  const plain = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ''); // namespaces and URLs are no paths
  return LEAKS.filter(([re]) => re.test(plain)).map(([, what]) => what);
}

/** A stack frame or file path in the text of a refusal (its reason and code, or its body). */
export function faultTextFailures(c: Ctx, raw: Raw): string[] {
  const f = faultOf(c, raw);
  // The text as sent: a reason read from it leaves a .NET stack trace out.
  const text = f ? `${f.text} ${f.detailCode ?? ''}` : new TextDecoder().decode(raw.body);
  return leaks(text).map((what) => `${what} in a fault: ${JSON.stringify(text.slice(0, 300))}`);
}

/** A client refusal: 4xx, or a SOAP Client/Sender fault. */
export function clientRefusal(c: Ctx, raw: Raw): string[] {
  if (raw.noAnswer !== undefined) return [describe(c, raw)];
  if (raw.status === 200) return ['accepted: HTTP 200'];
  if (raw.status >= 400 && raw.status < 500) return [];
  const f = faultOf(c, raw);
  if (f?.soapCode && /:(Client|Sender)$/.test(f.soapCode)) return [];
  return [`not refused as the client's error: ${describe(c, raw)}`];
}

/** The probe's SOAP request, correctly signed, with `inner` inside the operation element. */
async function soapWith(
  c: Ctx,
  op: OperationSpec,
  binding: BindingDef,
  inner: string,
  o: { dtd?: string; apiKeyXml?: string } = {},
): Promise<Raw> {
  const req = await prepare(c, op.name, paramsFor(c, op).params, binding.id);
  const opXml = c.o.operations[op.name]!.encodeSoapRequest(paramsFor(c, op).params, c.ns);
  const withInner = opXml.endsWith(' />')
    ? `${opXml.slice(0, -3)}>${inner}</${op.name}>`
    : `${opXml.slice(0, opXml.lastIndexOf('</'))}${inner}</${op.name}>`;
  const auth = await signed(c, op.name, c.clock.next());
  let header = c.o.auth.encodeHeader(o.apiKeyXml ? { ...auth, APIKey: SLOT } : auth, c.ns);
  if (o.apiKeyXml) header = header.replace(SLOT, o.apiKeyXml);
  let body = writeSoapEnvelope(binding.soapVersion ?? '1.1', header, withInner);
  if (o.dtd)
    body = /^<\?xml[^>]*\?>/.test(body)
      ? body.replace(/^(<\?xml[^>]*\?>)/, `$1${o.dtd}`)
      : o.dtd + body;
  return fetchRaw(req.url, { ...req.init, body });
}

async function stillAnswers(c: Ctx, op: OperationSpec, binding: Binding): Promise<string[]> {
  const raw = await send(c, op.name, paramsFor(c, op).params, binding);
  return raw.status === 200
    ? []
    : [`afterwards a correct request was not answered: ${describe(c, raw)}`];
}

/** Resolves with the answers, or with null when `ms` pass first (outstanding requests aborted). */
async function within<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T | null> {
  const ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([run(ctl.signal), late]);
  } finally {
    clearTimeout(timer);
    ctl.abort();
  }
}

/**
 * How long the others wait once the held request's head and first half have gone to fetch's
 * socket: time for the server to read them first (over loopback, far less).
 */
const HELD_SETTLE_MS = 100;

/**
 * Sends a request that stays open (its body never ends: a request of the first binding that sends
 * a body), and resolves once its head is on its way. Without that wait the other requests could
 * reach the server first, and a server that answers one request at a time would pass (it did once
 * signing stopped taking a turn of the event loop: fetch connects in the background).
 */
async function holdOpen(c: Ctx, op: OperationSpec, held: AbortSignal): Promise<void> {
  const withBody = c.o.wire.bindings.find((b) => b.requestContentType !== null);
  if (!withBody) return;
  const req = await prepare(c, op.name, paramsFor(c, op).params, withBody.id);
  const text = typeof req.init.body === 'string' ? req.init.body : '';
  const start = new TextEncoder().encode(text.slice(0, Math.ceil(text.length / 2)));
  let sent = () => {};
  const sending = new Promise<void>((resolve) => (sent = resolve));
  // fetch reads the first chunk as it writes the request's head; only then does it ask for more.
  const body = new ReadableStream<Uint8Array>({ start: (ctl) => ctl.enqueue(start), pull: sent });
  const init = { ...req.init, body, duplex: 'half', signal: held };
  void fetch(req.url, init as RequestInit).catch(sent);
  await within(c.o.hostileWaitMs ?? 10_000, () => sending);
  await new Promise((resolve) => setTimeout(resolve, HELD_SETTLE_MS));
}

/**
 * How much longer than with nothing held the answers may take while a request is held open: far
 * under any server's read time-out (how long it lets a slow client hold a connection, seconds),
 * far over a busy machine's jitter. So a server whose answers wait for the held connection fails
 * however soon it would drop it; a waiting time as long as the run's (10 s) let one that dropped a
 * slow client after 5 s pass, while it stalled every caller for 5 s.
 */
export const HELD_OPEN_SLACK_MS = 1_000;

/** How long `concurrent` requests take to be answered together, with their statuses; null past `ms`. */
async function batch(
  c: Ctx,
  op: OperationSpec,
  binding: Binding,
  ms: number,
): Promise<{ ms: number; statuses: number[] } | null> {
  const n = c.model.hostile.concurrent;
  const reqs = await Promise.all(
    Array.from({ length: n }, () => prepare(c, op.name, paramsFor(c, op).params, binding)),
  );
  const started = performance.now();
  const statuses = await within(ms, (signal) =>
    Promise.all(reqs.map((r) => fetchRaw(r.url, { ...r.init, signal }).then((x) => x.status))),
  );
  return statuses && { ms: performance.now() - started, statuses };
}

/**
 * While one request is held open, `concurrent` others are answered about as soon as with nothing
 * held: within HELD_OPEN_SLACK_MS of the time they took without it.
 */
async function checkConcurrency(c: Ctx, op: OperationSpec, binding: Binding): Promise<string[]> {
  const n = c.model.hostile.concurrent;
  const wait = c.o.hostileWaitMs ?? 10_000;
  await batch(c, op, binding, wait); // connections made, code paths warm
  const alone = await batch(c, op, binding, wait);
  if (alone === null)
    return [`${n} requests were not all answered within ${wait / 1000} s, with nothing held open`];
  const aloneMs = Math.round(alone.ms);
  const bound = aloneMs + HELD_OPEN_SLACK_MS;
  const held = new AbortController();
  await holdOpen(c, op, held.signal);
  try {
    const during = await batch(c, op, binding, bound);
    if (during === null)
      return [
        `${n} requests sent while another was held open were not all answered within ${bound} ms (${aloneMs} ms without it): answers wait for the held connection`,
      ];
    const bad = during.statuses.filter((s) => s !== 200);
    return bad.length
      ? [`${bad.length} of ${n} concurrent requests answered ${bad.join(', ')}`]
      : [];
  } finally {
    held.abort();
  }
}

export async function checkHostile(
  c: Ctx,
  binding: Binding,
  out: ConformanceResult[],
  refused: Refused[],
): Promise<void> {
  const group = 'Hostile';
  const op = probeOperation(c, binding);
  const push = (family: CheckFamily, check: string, failures: string[]) =>
    (c.level === 'evgen' || c.model.checks[family].level === 'document') &&
    out.push(resultOf(c.model, family, { group, binding, check }, failures));
  const seen: Raw[] = refused.map((r) => r.raw);
  const h = c.model.hostile;
  if (!op) {
    for (const [family, check] of [
      ['concurrency', 'answers requests while another is held open'],
    ] as const)
      out.push(
        skipped(
          c.model,
          family,
          { group, binding, check },
          'skip',
          'no read operation can be called with the values found',
        ),
      );
    return;
  }
  const def = bindingDef(c, binding);
  if (def.kind === 'soap') {
    const pad = ' '.repeat(h.bodyBytes);
    const big = await soapWith(c, op, def, pad);
    seen.push(big);
    push('bodySize', `refuses a body of ${h.bodyBytes} bytes`, [
      ...(big.status === 413 ? [] : clientRefusal(c, big)),
      ...(await stillAnswers(c, op, binding)),
    ]);
    const deep = await soapWith(c, op, def, '<a>'.repeat(h.depth) + '</a>'.repeat(h.depth));
    seen.push(deep);
    push('nesting', `refuses ${h.depth} nested elements`, [
      ...clientRefusal(c, deep),
      ...(await stillAnswers(c, op, binding)),
    ]);
    const dtd = `<!DOCTYPE Envelope [<!ENTITY marker "${MARKER}"><!ENTITY xxe SYSTEM "file:///etc/hostname">]>`;
    const xxe = await soapWith(c, op, def, '', { dtd, apiKeyXml: '&marker;&xxe;' });
    seen.push(xxe);
    const echoed = new TextDecoder().decode(xxe.body).includes(MARKER);
    push('wellFormed', 'refuses a DTD and its entities', [
      ...refusalFailures(c, binding, xxe),
      ...(echoed ? ['an entity declared in the DTD was expanded and sent back'] : []),
    ]);
    const other = c.model.operations.find((o) => o.name !== op.name)!.name;
    const req = await prepare(c, op.name, paramsFor(c, op).params, binding);
    const { check } = REFUSALS.soapAction;
    if (def.soapAction === null) {
      if (c.level === 'evgen' || c.model.checks.soapAction.level === 'document')
        out.push(
          skipped(c.model, 'soapAction', { group, binding, check }, 'skip', 'no SOAPAction rule'),
        );
    } else {
      // The binding's own SOAPAction rule, filled with another operation's name.
      const headers = soapRequestHeaders(def, c.ns, other);
      const mismatch = await fetchRaw(req.url, { ...req.init, headers });
      seen.push(mismatch);
      if (mismatch.status !== 200)
        refused.push({ binding, check, raw: mismatch, code: c.model.checks.soapAction.fault! });
      push('soapAction', check, refusalFailures(c, binding, mismatch));
    }
    const bad = await fetchRaw(req.url, { ...req.init, body: '<not-xml' });
    seen.push(bad);
    push('wellFormed', REFUSALS.malformed.check, [
      ...refusalFailures(c, binding, bad),
      ...clientRefusal(c, bad),
    ]);
  } else if (def.requestContentType !== null) {
    // An HTTP binding whose parameters travel in the body.
    const req = await prepare(c, op.name, paramsFor(c, op).params, binding);
    const big = await fetchRaw(req.url, {
      ...req.init,
      body: `${req.init.body as string}&pad=${'x'.repeat(h.bodyBytes)}`,
    });
    seen.push(big);
    push('bodySize', `refuses a body of ${h.bodyBytes} bytes`, [
      ...(big.status === 413 ? [] : clientRefusal(c, big)),
      ...(await stillAnswers(c, op, binding)),
    ]);
  }
  const texts = seen.flatMap((raw) => faultTextFailures(c, raw));
  push('faultText', CHECK_NAMES.faultText, [...new Set(texts)]);
  push(
    'concurrency',
    'answers requests while another is held open',
    await checkConcurrency(c, op, binding),
  );
}
