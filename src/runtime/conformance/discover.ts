// Finds ids to call operations with, through the read operations themselves, so the suite can be
// pointed at any server holding data.
import type { OperationTable, Transport } from '../transport/index.js';

export type ParamValues = Record<string, string | number | boolean>;

/* eslint-disable @typescript-eslint/no-explicit-any -- decoded results are walked generically */
export async function discover(t: Transport, ops: OperationTable): Promise<ParamValues> {
  const call = (name: string, params: object) => t.call(ops[name]!, params) as Promise<any>;
  const found: ParamValues = {
    skip: 0,
    size: 5,
    clientUserId: 1,
    includeArchived: true,
    isTestBookingForm: false,
    searchQuery: '',
    tokenType: 'ContactRegistration',
    fromDate: '2000-01-01T00:00:00',
    toDate: '2100-01-01T00:00:00',
  };
  const events: any[] = (await call('EventProfileSearch', { searchQuery: '' })).Events;
  if (events.length === 0)
    throw new Error(
      'EventProfileSearch("") returned no events: the server needs data to be checked',
    );
  for (const m of events.slice(0, 12)) {
    const eventId = m.Event.EventId as number;
    const details = await call('GetEventDetails7', { eventId });
    if (found.roadshowId === undefined && details.RoadshowId > 0)
      found.roadshowId = details.RoadshowId;
    if (found.eventId !== undefined) continue;
    const bookings: any[] = await call('GetBookingsBatch', { eventId, skip: 0, size: 5 });
    const booking = bookings.find((b) => b.Attendees.length > 0);
    if (!booking) continue;
    Object.assign(found, {
      eventId,
      bookingId: booking.BookingId,
      email: booking.Attendees[0].Email,
      emailAddress: booking.Attendees[0].Email,
      seriesValue: details.Code_Series,
    });
  }
  if (found.eventId === undefined)
    throw new Error('no event with bookings found through EventProfileSearch and GetBookingsBatch');
  found.roadshowId ??= 0;
  found.contactId = (await call('GetContact', { email: found.email })).ContactId;
  const types: any[] = await call('GetAttendeeTypes', { eventId: found.eventId });
  const type = types.find((x) => x.TicketTypes.length > 0);
  if (type)
    Object.assign(found, {
      attendeeTypeId: type.AttendeeTypeId,
      ticketTypeId: type.TicketTypes[0].TicketTypeId,
    });
  const statuses: any[] = await call('GetAttendeeStatuses', { eventId: found.eventId });
  found.bookingStatusId =
    statuses.find((s) => s.IsDefault)?.LinkedBookingStatusId ??
    statuses[0]?.LinkedBookingStatusId ??
    1;
  return found;
}
