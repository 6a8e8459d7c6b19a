// Faults: what handlers and the engine throw, and how each binding carries one. The codes, their
// SOAP codes, HTTP statuses and detail element come from the service's fault table (FaultTable,
// generated from spec/errors.yaml); nothing here names a code.
import { escapeAttr, escapeText, writeSoapEnvelope } from '../xml/index.js';
import type { BindingDef, FaultDef, FaultRole, FaultTable } from './wire.js';

/**
 * Thrown by a handler: answered as `code`'s fault on the request's binding. `Code` is the
 * service's fault-code union: a generated package exports this class typed by its own codes
 * (`ServiceFaultClass<FaultCode>`), so a code the spec does not list does not compile.
 */
export class ServiceFault<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    /** For HTTP GET/POST: one of the code's statuses that says more than its default. */
    readonly httpStatus?: number,
    /** `cause`: what went wrong underneath, for the server's log only. */
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ServiceFault';
  }
}

/** The ServiceFault class typed by one service's fault codes (what a generated package exports). */
export interface ServiceFaultClass<Code extends string> {
  new (
    code: Code,
    message: string,
    httpStatus?: number,
    options?: ErrorOptions,
  ): ServiceFault<Code>;
  readonly prototype: ServiceFault<Code>;
}

/** Thrown by the engine: the fault table names the code of each situation (`raisedFor`). */
export class EngineFault extends Error {
  constructor(
    readonly role: FaultRole,
    message: string,
    readonly httpStatus?: number,
    /** Header fields the answer carries besides the fault's own (e.g. Accept-Encoding with 415). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'EngineFault';
  }
}

/** A fault about to be sent: its code's table entry, the message that may leave, a status hint. */
export interface ResolvedFault {
  readonly def: FaultDef;
  readonly message: string;
  readonly httpStatus: number | undefined;
  /** Header fields the answer carries besides the fault's own. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The most characters of a fault's text that leave the server; past it the text is cut with
 * "…". Values a text echoes are cut far shorter (quoteInput): this holds whatever a handler wrote.
 */
export const MAX_FAULT_TEXT = 512;

const bounded = (text: string) =>
  text.length <= MAX_FAULT_TEXT ? text : `${text.slice(0, MAX_FAULT_TEXT - 1)}…`;

function codeDef(table: FaultTable, code: string | undefined): FaultDef | undefined {
  return code === undefined ? undefined : table.codes.find((c) => c.code === code);
}

// instanceof a generic class narrows its type parameter to any: this narrows to ServiceFault<string>.
const isServiceFault = (e: unknown): e is ServiceFault => e instanceof ServiceFault;

/**
 * Any error as the fault that goes out. An unknown code, a role the table names no code for, or an
 * error that is no fault becomes the internal code; a code with a fixed message never carries the
 * original one.
 */
export function resolveFault(e: unknown, table: FaultTable): ResolvedFault {
  const def =
    e instanceof EngineFault
      ? codeDef(table, table.raisedFor[e.role])
      : isServiceFault(e)
        ? codeDef(table, e.code)
        : undefined;
  if (def && (e instanceof EngineFault || isServiceFault(e)))
    return {
      def,
      message: bounded(def.message ?? e.message),
      httpStatus: e.httpStatus,
      ...(e instanceof EngineFault && e.headers ? { headers: e.headers } : {}),
    };
  // Never the error's own text: it may hold a stack, SQL or data (the spec gives the message).
  const internal = codeDef(table, table.raisedFor.internal)!;
  return { def: internal, message: internal.message ?? '', httpStatus: undefined };
}

/**
 * An internal fault with the request's id at the end of its text ("Internal error (request
 * <id>)"): the caller's handle on the operator's log line. Any other fault, or no id: as it is.
 */
export function withRequestId(
  fault: ResolvedFault,
  table: FaultTable,
  requestId: string | undefined,
): ResolvedFault {
  if (requestId === undefined || fault.def.code !== table.raisedFor.internal) return fault;
  return { ...fault, message: `${fault.message} (request ${requestId})` };
}

export interface EncodedFault {
  readonly status: number;
  /** content-type, and retry-after where the code has one. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

function faultHeaders(fault: ResolvedFault, contentType: string): Record<string, string> {
  const { def } = fault;
  return {
    ...fault.headers,
    'content-type': contentType,
    ...(def.retryAfterSeconds === null ? {} : { 'retry-after': String(def.retryAfterSeconds) }),
  };
}

/** A SOAP fault in the envelope of `binding`, with the code in the detail element. */
export function encodeSoapFault(
  binding: BindingDef,
  fault: ResolvedFault,
  ns: string,
  table: FaultTable,
): EncodedFault {
  const text = escapeText(fault.message);
  const { def } = fault;
  const el = table.detailElement;
  const detail = `<${el} xmlns="${escapeAttr(ns)}">${escapeText(def.code)}</${el}>`;
  const v11 = binding.soapVersion === '1.1';
  const body = v11
    ? `<soap:Fault><faultcode>${def.soap11}</faultcode><faultstring>${text}</faultstring><detail>${detail}</detail></soap:Fault>`
    : `<soap12:Fault><soap12:Code><soap12:Value>${def.soap12}</soap12:Value></soap12:Code><soap12:Reason><soap12:Text xml:lang="en">${text}</soap12:Text></soap12:Reason><soap12:Detail>${detail}</soap12:Detail></soap12:Fault>`;
  const hint = fault.httpStatus;
  return {
    status:
      hint !== undefined && table.transportStatuses.includes(hint)
        ? hint
        : v11
          ? def.soap11Status
          : def.soap12Status,
    headers: faultHeaders(fault, binding.responseContentType),
    body: writeSoapEnvelope(v11 ? '1.1' : '1.2', undefined, body),
  };
}

/** An HTTP GET/POST fault: one of the code's statuses and a one-line `<Code>: <message>` body. */
export function encodeHttpFault(fault: ResolvedFault, table: FaultTable): EncodedFault {
  const { def, httpStatus } = fault;
  return {
    status:
      httpStatus !== undefined && def.httpStatuses.includes(httpStatus)
        ? httpStatus
        : def.httpStatuses[0]!,
    headers: faultHeaders(fault, table.httpContentType),
    body: `${def.code}: ${fault.message.replace(/[\r\n]+/g, ' ')}\n`,
  };
}
