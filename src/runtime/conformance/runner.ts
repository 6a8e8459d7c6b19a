// Runs the conformance suite against any server: transport (status, exact content type), shape
// (lexical form of every field), authentication refusals and fault shapes, for each binding.
import {
  parseSoapEnvelope,
  parseXml,
  readSoapEnvelope,
  readXml,
  type XmlElement,
} from '../xml/index.js';
import {
  bindingById,
  buildRequest,
  createTransport,
  namespaceFor,
  TimestampClock,
  type AuthScheme,
  type AuthValues,
  type Binding,
  type OperationTable,
  type Transport,
  type WireSpec,
} from '../transport/index.js';
import type { ParamValues } from './discover.js';
import type { ConformanceModel, Findings, OperationSpec } from './model.js';
import { checkResult } from './shape.js';

export interface ConformanceOptions {
  readonly url: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly model: ConformanceModel;
  readonly operations: OperationTable;
  readonly auth: AuthScheme;
  readonly wire: WireSpec;
  readonly bindings?: readonly Binding[];
  /** Run SubmitSimpleBookingWithBookingStatus, CancelAttendee, CancelBooking: they change data. */
  readonly allowWrites?: boolean;
  /** A single-use ContactRegistration token for VerifyTokenForContact (consumed when writes are allowed). */
  readonly token?: string;
  /** Only these operations (default: all). */
  readonly only?: readonly string[];
}

export interface ConformanceResult {
  readonly group: string;
  readonly binding: Binding | 'wsdl';
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly failures: string[];
  readonly warnings: string[];
}

export interface Ctx {
  readonly o: ConformanceOptions;
  readonly endpoint: string;
  readonly ns: string;
  readonly clock: TimestampClock;
  /** A typed client on the same server, for discovery and follow-up reads. */
  readonly transport: Transport;
}

export interface Raw {
  readonly status: number;
  readonly type: string;
  readonly body: Uint8Array;
}

export async function send(
  c: Ctx,
  opName: string,
  params: object,
  binding: Binding,
  tamper?: (v: AuthValues) => AuthValues | undefined,
): Promise<Raw> {
  const req = await buildRequest(
    {
      endpoint: c.endpoint,
      ns: c.ns,
      apiKey: c.o.apiKey,
      secretKey: c.o.secretKey,
      auth: c.o.auth,
      timestamp: c.clock.next(),
      ...(tamper ? { tamper } : {}),
    },
    c.o.operations[opName]!,
    params,
    bindingById(c.o.wire, binding),
  );
  const res = await fetch(req.url, req.init);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

const isSoap = (b: Binding) => b === 'soap11' || b === 'soap12';

function child(el: XmlElement, name: string, ns: string): XmlElement | undefined {
  return el.children.find((x) => x.name === name && x.ns === ns);
}

/** The response of one operation call, checked against the model. */
export function checkResponse(
  c: Ctx,
  op: OperationSpec,
  binding: Binding,
  raw: Raw,
  f: Findings,
): void {
  if (raw.status !== 200)
    return void f.failures.push(
      `HTTP status ${raw.status}, expected 200: ${new TextDecoder().decode(raw.body).slice(0, 160)}`,
    );
  const want = c.o.model.contentTypes[binding];
  if (raw.type !== want)
    f.failures.push(`content type ${JSON.stringify(raw.type)}, expected ${JSON.stringify(want)}`);
  if (!isSoap(binding)) {
    if (op.httpRoot === null)
      return void (
        raw.body.length > 0 && f.warnings.push('a body for an operation without result')
      );
    const root = parseXml(raw.body);
    if (root.name !== op.httpRoot || root.ns !== c.ns)
      return void f.failures.push(
        `root element {${root.ns}}${root.name}, expected {${c.ns}}${op.httpRoot}`,
      );
    return checkResult(c.o.model, root, op.result!, c.ns, root.name, f);
  }
  const env = parseSoapEnvelope(raw.body);
  if (env.version !== (binding === 'soap11' ? '1.1' : '1.2'))
    f.failures.push(`SOAP ${env.version} envelope on the ${binding} binding`);
  const response = env.payload;
  if (!response || response.name !== op.responseElement || response.ns !== c.ns)
    return void f.failures.push(
      `Body holds ${response ? `{${response.ns}}${response.name}` : 'nothing'}, expected {${c.ns}}${op.responseElement}`,
    );
  const result = child(response, op.resultElement, c.ns);
  if (op.result === null)
    return void (
      result && f.failures.push(`${op.resultElement} present, but the operation returns nothing`)
    );
  if (!result) return void f.failures.push(`${op.responseElement}/${op.resultElement}: missing`);
  checkResult(c.o.model, result, op.result, c.ns, op.resultElement, f);
}

export function createContext(o: ConformanceOptions): Ctx {
  const base = o.url.replace(/\/+$/, '');
  return {
    o,
    endpoint: `${base}${o.model.endpointPath}`,
    ns: namespaceFor(base, o.wire.namespace),
    clock: new TimestampClock(),
    transport: createTransport({
      baseUrl: base,
      apiKey: o.apiKey,
      secretKey: o.secretKey,
      auth: o.auth,
      wire: o.wire,
    }),
  };
}

function operationOrder(o: ConformanceOptions): OperationSpec[] {
  // Writes in the order that lets each use the previous one's booking.
  const rank = (n: string) =>
    ['SubmitSimpleBookingWithBookingStatus', 'CancelAttendee', 'CancelBooking'].indexOf(n);
  return o.model.operations
    .filter((op) => !o.only || o.only.includes(op.name))
    .sort((a, b) => rank(a.name) - rank(b.name));
}

export async function runOperations(
  c: Ctx,
  values: ParamValues,
  bindings: readonly Binding[],
  out: ConformanceResult[],
): Promise<void> {
  for (const op of operationOrder(c.o)) {
    for (const binding of bindings) {
      const skip =
        op.mutating && !c.o.allowWrites
          ? 'changes data: run with writes allowed'
          : op.name === 'VerifyTokenForContact' && !c.o.token
            ? 'needs a token'
            : undefined;
      const f: Findings = { failures: [], warnings: [] };
      if (!skip) {
        const params = Object.fromEntries(op.params.map((p) => [p.name, values[p.name]]));
        try {
          const raw = await send(c, op.name, params, binding);
          checkResponse(c, op, binding, raw, f);
          if (op.name === 'SubmitSimpleBookingWithBookingStatus' && raw.status === 200)
            await rememberBooking(c, raw, binding, values);
        } catch (e) {
          f.failures.push(`no usable answer: ${(e as Error).message}`);
        }
      }
      out.push({
        group: op.name,
        binding,
        name: 'response',
        status: skip ? 'skip' : f.failures.length ? 'fail' : 'pass',
        failures: skip ? [skip] : f.failures,
        warnings: f.warnings,
      });
    }
  }
}

/** The booking just made, so CancelAttendee and CancelBooking have something of their own to cancel. */
async function rememberBooking(
  c: Ctx,
  raw: Raw,
  binding: Binding,
  values: ParamValues,
): Promise<void> {
  const op = c.o.operations.SubmitSimpleBookingWithBookingStatus!;
  const d = readXml(raw.body);
  const made = (
    isSoap(binding)
      ? op.decodeSoapResponse(d, readSoapEnvelope(d).payload, c.ns)
      : op.decodeHttpResponse(d, c.ns)
  ) as { BookingId: number; BookingReference: string };
  const booking = (await c.transport.call(c.o.operations.GetBooking!, {
    bookingId: made.BookingId,
  })) as { Attendees: { AttendeeReference: string }[] };
  values.bookingReference = made.BookingReference;
  values.attendeeReference = booking.Attendees[0]!.AttendeeReference;
}
