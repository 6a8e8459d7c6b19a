// Which lane of workers a request goes to, read from the request line and headers only (the body
// is not parsed on the request loop). Operations whose answer grows with the data (pages of
// bookings, every attendee of an event, a search) run in the bulk lane; everything else in the
// quick lane, so a small call never waits behind a page. A request whose operation cannot be
// told without parsing its body goes to the bulk lane: it cannot hold up the quick one.
import {
  sentSoapAction,
  soapBindingAt,
  unquoteAction,
  type BindingDef,
  type ServiceRequest,
} from '@evgen/runtime';
import type { operations } from '@evgen/event-management/operations';
import { SERVICE, WIRE } from '@evgen/event-management/service';

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

const ENDPOINT = SERVICE.endpointPath;

/** The operation a request names before its body is read, if it names one. */
export function operationOf(req: ServiceRequest): string | undefined {
  if (req.url.startsWith(`${ENDPOINT}/`)) {
    const name = req.url.slice(ENDPOINT.length + 1);
    const end = name.indexOf('?');
    return end < 0 ? name : name.slice(0, end);
  }
  const binding = req.method === 'POST' ? soapBindingOf(req) : undefined;
  const sent = binding && sentSoapAction(binding, req.headers);
  if (sent === undefined) return undefined;
  const action = unquoteAction(sent);
  return action.slice(action.lastIndexOf('/') + 1);
}

/** The SOAP binding of a POST, from its path and media type (the spec's tables). */
export const soapBindingOf = (req: ServiceRequest): BindingDef | undefined =>
  soapBindingAt(WIRE, req.url, req.headers['content-type']);

export function laneOf(req: ServiceRequest): Lane {
  if (req.method === 'GET' && !req.url.startsWith(`${ENDPOINT}/`)) return 'quick'; // WSDL, health
  const op = operationOf(req);
  return op === undefined || BULK_OPERATIONS.has(op) ? 'bulk' : 'quick';
}
