// Which lane of workers a request goes to, read from the request line and headers only (the body
// is not parsed on the request loop). Operations whose answer grows with the data (pages of
// bookings, every attendee of an event, a search) run in the bulk lane; everything else in the
// quick lane, so a small call never waits behind a page. A request whose operation cannot be
// told without parsing its body goes to the bulk lane: it cannot hold up the quick one.
import { mediaType, type ServiceRequest } from '@evgen/runtime';
import type { operations } from '@evgen/event-management/operations';
import { SERVICE } from '@evgen/event-management/service';

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
  if (req.url !== ENDPOINT || req.method !== 'POST') return undefined;
  const type = req.headers['content-type'];
  const action =
    mediaType(type).type === 'application/soap+xml'
      ? /;\s*action\s*=\s*"?([^";]*)/i.exec(type ?? '')?.[1]
      : req.headers.soapaction?.replace(/^\s*"|"\s*$/g, '');
  return action?.slice(action.lastIndexOf('/') + 1);
}

export function laneOf(req: ServiceRequest): Lane {
  if (req.method === 'GET' && !req.url.startsWith(`${ENDPOINT}/`)) return 'quick'; // WSDL, health
  const op = operationOf(req);
  return op === undefined || BULK_OPERATIONS.has(op) ? 'bulk' : 'quick';
}
