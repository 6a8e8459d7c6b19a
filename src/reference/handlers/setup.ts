// Per-event set-up: attendee and ticket types, bookable sessions, statuses, custom fields,
// accommodation, and ticket types across a roadshow. Counts come from live attendees.
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { TicketTypeResponse } from '@evgen/event-management/types';
import type { TicketTypeRow, TicketTypeSet } from '../store/records.js';
import type { ReferenceStore } from '../store/store.js';
import { e5, found, listsBy, notFound } from './common.js';

// Typed, so a field the spec renames fails the type check here (a spread is not checked).
const roadshowOnly = (t: TicketTypeRow): Pick<TicketTypeResponse, 'MinAge' | 'ExternalSite'> => ({
  MinAge: t.minAge,
  ExternalSite: t.externalSite,
});

/** Ticket types by id, with their attendee types, attendance types and days. */
function ticketTypes(set: TicketTypeSet, roadshowFields: boolean): Map<number, TicketTypeResponse> {
  const types = listsBy(
    set.links,
    (l) => l.ticketTypeId,
    (l) => l.attendeeTypeId,
  );
  const attendance = listsBy(
    set.attendance,
    (a) => a.ticketTypeId,
    (a) => ({ Id: a.id, Name: a.name }),
  );
  const days = listsBy(
    set.days,
    (d) => d.ticketTypeId,
    (d) => ({ Date: d.day }),
  );
  const response = (t: TicketTypeRow): TicketTypeResponse => ({
    TicketTypeId: t.id,
    Name: t.name,
    Capacity: t.capacity,
    GrossPrice: e5(t.grossPriceE5),
    TaxRate: e5(t.taxRateE5),
    AttendeeTypes: types(t.id),
    AttendeeCount: t.attendees,
    NumberOfDaysValid: t.daysValid,
    IsOpen: t.isOpen,
    AvailabilityStartDate: t.availableFrom,
    AvailabilityEndDate: t.availableTo,
    AttendanceType: attendance(t.id),
    TicketTypeDays: days(t.id),
    ...(roadshowFields ? roadshowOnly(t) : {}),
  });
  return new Map(set.tickets.map((t) => [t.id, response(t)]));
}

type SetupHandlers = Pick<
  ServiceHandlers,
  | 'getAttendeeTypes'
  | 'getBookableSessions'
  | 'getAttendeeStatuses'
  | 'getCustomFields'
  | 'getAccommodation'
  | 'getTicketTypesByRoadshowId'
>;

export function setupHandlers(store: ReferenceStore): SetupHandlers {
  const ofEvent = <T>(record: T | undefined, eventId: number) => found(record, `event ${eventId}`);
  return {
    async getAttendeeTypes({ eventId }) {
      const { types, tickets } = ofEvent(await store.attendeeTypes(eventId), eventId);
      const byId = ticketTypes(tickets, false);
      const ticketsOf = listsBy(
        tickets.links,
        (l) => l.attendeeTypeId,
        (l) => byId.get(l.ticketTypeId),
      );
      return types.map((t) => ({
        AttendeeTypeId: t.id,
        Name: t.name,
        TicketTypes: ticketsOf(t.id).filter((x): x is TicketTypeResponse => x !== undefined),
      }));
    },
    async getBookableSessions({ eventId }) {
      const { sessions, tickets } = ofEvent(await store.bookableSessions(eventId), eventId);
      const ticketsOf = listsBy(
        tickets,
        (c) => c.sessionId,
        (c) => ({
          AttendeeTypeId: c.attendeeTypeId,
          TicketTypeId: c.ticketTypeId,
          AttendeeType: c.attendeeType,
          TicketType: c.ticketType,
        }),
      );
      return sessions.map((s) => ({
        BookableSessionId: s.id,
        Title: s.title,
        Code: s.code,
        AllowGuests: s.allowGuests,
        Capacity: s.capacity,
        StartDateTime: s.startAt,
        EndDateTime: s.endAt,
        TaxRate: e5(s.taxRateE5),
        GrossPrice: e5(s.grossPriceE5),
        WaitingListCapacity: s.waitingListCapacity,
        HasWaitingList: s.hasWaitingList,
        MaximumGuests: s.maximumGuests,
        SignupCount: s.signups,
        WaitingListSignupCount: s.waiting,
        VenueName: s.venueName,
        VenueRoomName: s.venueRoom,
        AttendeeTicketTypes: ticketsOf(s.id),
      }));
    },
    async getAttendeeStatuses({ eventId }) {
      return ofEvent(await store.attendeeStatuses(eventId), eventId).map((r) => ({
        AttendeeStatusId: r.id,
        Name: r.name,
        IsAttending: r.isAttending,
        IsDefault: r.isDefault,
        StatusType: r.statusType,
        EventId: r.eventId,
        LinkedBookingStatusId: r.linkedBookingStatusId,
      }));
    },
    async getCustomFields({ eventId }) {
      const { fields, options } = ofEvent(await store.customFields(eventId), eventId);
      const valuesOf = listsBy(
        options,
        (o) => o.fieldId,
        (o) => o.value,
      );
      return fields.map((f) => ({
        CustomFieldId: f.id,
        Name: f.name,
        Type: f.type,
        Values: valuesOf(f.id),
      }));
    },
    async getAccommodation({ eventId }) {
      if (!(await store.eventExists(eventId))) throw notFound(`event ${eventId}`);
      return {}; // gap accommodation-content: the result is empty by decision
    },
    async getTicketTypesByRoadshowId({ roadshowId }) {
      const r = found(await store.roadshowTickets(roadshowId), `roadshow ${roadshowId}`);
      const byId = ticketTypes(r.tickets, true);
      const ticketsOf = listsBy(
        r.tickets.tickets,
        (t) => t.eventId,
        (t) => byId.get(t.id)!,
      );
      return r.events.map((e) => ({
        EventId: e.id,
        Title: e.title,
        StartDate: e.startDate,
        EndDate: e.endDate,
        MaxAllowableGuestsOnRoadshow: r.maxGuests,
        TicketTypes: ticketsOf(e.id),
      }));
    },
  };
}
