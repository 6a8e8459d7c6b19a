// Which lane of workers a request goes to, read from the request line and headers only (the body
// is not parsed on the request loop). Operations whose answer grows with the data (pages of
// bookings, every attendee of an event, a search) run in the bulk lane; everything else in the
// quick lane, so a small call never waits behind a page. A request whose operation cannot be
// told without parsing its body goes to the bulk lane: it cannot hold up the quick one. Small
// reads (quick-lane operations the spec does not mark `mutating`) the request loop answers itself
// (servedOnLoop, serve.ts): handing one to a worker cost the loop as much as serving it.
import { type BindingDef, type ServiceRequest } from '@evgen/runtime';
import {
  httpOperationAt,
  sentSoapAction,
  soapBindingAt,
  unquoteAction,
} from '@evgen/runtime/internal';
import { operations } from '@evgen/event-management/operations';
import { WIRE } from '@evgen/event-management/service';

export type Lane = 'quick' | 'bulk';
export const LANES: readonly Lane[] = ['quick', 'bulk'];

type OperationName = keyof typeof operations;
export const BULK_OPERATIONS: ReadonlySet<string> = new Set<OperationName>([
  'GetBookings',
  'GetBookingsBatch',
  'GetExtBookings',
  'GetCalendarAttendeesForEvent',
  'EventProfileSearch',
  'GetContactEventHistory3',
]);

/** The operation a request names before its body is read, if it names one. */
export function operationOf(req: ServiceRequest): string | undefined {
  const named = httpOperationAt(WIRE, req.url);
  if (named !== undefined) return named;
  const binding = req.method === 'POST' ? soapBindingOf(req) : undefined;
  const sent = binding && sentSoapAction(binding, req.headers);
  if (sent === undefined) return undefined;
  const action = unquoteAction(sent);
  return action.slice(action.lastIndexOf('/') + 1);
}

/**
 * The binding a request is in, from its path, method and media type, if they name one: what a
 * request's record says when no service instance read it (a refusal on the request loop).
 */
export function bindingOf(req: ServiceRequest): string | undefined {
  const soap = req.method === 'POST' ? soapBindingOf(req) : undefined;
  if (soap !== undefined) return soap.id;
  if (httpOperationAt(WIRE, req.url) === undefined) return undefined;
  return WIRE.bindings.find((b) => b.kind === 'http' && b.method === req.method)?.id;
}

/** The SOAP binding of a POST, from its path and media type (the spec's tables). */
export const soapBindingOf = (req: ServiceRequest): BindingDef | undefined =>
  soapBindingAt(WIRE, req.url, req.headers['content-type']);

export function laneOf(req: ServiceRequest): Lane {
  const op = operationOf(req);
  if (op === undefined && req.method === 'GET') return 'quick'; // the WSDL, /healthz, help pages
  return op === undefined || BULK_OPERATIONS.has(op) ? 'bulk' : 'quick';
}

/**
 * Whether the request loop serves `req` itself: an operation of the quick lane that changes
 * nothing. Its database work is a few reads that never wait for a lock (WAL), and its replay
 * entry is written without blocking (sqlite/replay-store.ts); writes, which may wait for another
 * connection's write lock, stay on the quick lane's workers, as do pages and requests whose
 * operation the headers do not name.
 */
export function servedOnLoop(req: ServiceRequest): boolean {
  const op = operationOf(req);
  return (
    op !== undefined &&
    !BULK_OPERATIONS.has(op) &&
    Object.hasOwn(operations, op) &&
    !operations[op as OperationName].mutating
  );
}
