// Which lane of workers a request goes to, read from the request line and headers only (the body
// is not parsed on the request loop). Operations whose answer grows with the data (pages of
// bookings, every attendee of an event, a search) run in the bulk lane; everything else in the
// quick lane, so a small call never waits behind a page. A request whose operation cannot be
// told without parsing its body goes to the bulk lane: it cannot hold up the quick one. Small
// reads (quick-lane operations the spec does not mark `mutating`) the request loop answers itself
// (routeOf, serve.ts): handing one to a worker cost the loop as much as serving it.
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

/** Where a request is served: by the request loop itself, or by a lane of workers. */
export type Route = 'loop' | Lane;

/**
 * The route of `req`, decided once from the request line and headers. The request loop serves an
 * operation of the quick lane that changes nothing: its database work is a few reads that never
 * wait for a lock (WAL), and its replay entry is appended to a file, never waiting for a lock
 * (replay-log/). Writes, which may wait for another connection's write lock, go to the
 * quick lane's workers; pages, and requests whose operation the headers do not name, to the bulk
 * lane (the WSDL, /healthz and help pages, GETs without an operation, to the quick one).
 */
export function routeOf(req: ServiceRequest): Route {
  const op = operationOf(req);
  if (op === undefined) return req.method === 'GET' ? 'quick' : 'bulk';
  if (BULK_OPERATIONS.has(op)) return 'bulk';
  const small = Object.hasOwn(operations, op) && !operations[op as OperationName].mutating;
  return small ? 'loop' : 'quick';
}

/** The lane of workers `req` goes to when every request is served by workers. */
export function laneOf(req: ServiceRequest): Lane {
  const route = routeOf(req);
  return route === 'loop' ? 'quick' : route;
}
