// Event-level reads: details 3/7, EventProfileSearch, calendar, submissions, shows, speakers and
// sub-client companies. Decision (gap include-archived): includeArchived false leaves archived
// events out of GetCalendarEventsByDateRange; events are those starting within [fromDate, toDate].
import type { ServiceHandlers } from '@evgen/event-management/server';
import { derivedOnce } from '../frozen.js';
import { parseSearch } from '../search.js';
import type { ReferenceStore } from '../store/store.js';
import { found, groupBy, invalid, listsBy } from './common.js';
import { eventDetails3, eventDetails7, eventModel } from './event-details.js';
import { showResponses } from './shows.js';

export const MAX_SEARCH_RESULTS = 500;

type EventHandlers = Pick<
  ServiceHandlers,
  | 'getEventDetails3'
  | 'getEventDetails7'
  | 'eventProfileSearch'
  | 'getCalendarEventsByDateRange'
  | 'getCalendarAttendeesForEvent'
  | 'getSubmissionsForEvent2'
  | 'getShows'
  | 'getSpeakersforSeries'
  | 'getSubClientCompanyList'
>;

// A kept record (the read cache's) answers with the same frozen value each time: its XML is made once.
const details3Of = derivedOnce(eventDetails3);
const details7Of = derivedOnce(eventDetails7);

export function eventHandlers(store: ReferenceStore): EventHandlers {
  const details = async (eventId: number, profiles: boolean) =>
    found(await store.eventDetails(eventId, profiles), `event ${eventId}`);
  return {
    getEventDetails3: async ({ eventId }) => details3Of(await details(eventId, false)),
    getEventDetails7: async ({ eventId }) => details7Of(await details(eventId, true)),
    async eventProfileSearch({ searchQuery }) {
      const { events, websites } = await store.searchEvents(
        parseSearch(searchQuery),
        MAX_SEARCH_RESULTS,
      );
      const sites = groupBy(websites, (w) => w.eventId);
      return { Events: events.map((e) => eventModel(e, sites.get(e.id) ?? [])) };
    },
    async getCalendarEventsByDateRange({ fromDate, toDate, includeArchived }) {
      if (fromDate > toDate) throw invalid(`fromDate ${fromDate} is after toDate ${toDate}`);
      const c = await store.calendarEvents(fromDate, toDate, includeArchived);
      return {
        SystemOwnerEmail: c.systemOwnerEmail,
        SystemOwnerFullname: c.systemOwnerName,
        Events: c.events.map((e) => ({
          EventId: e.id,
          Title: e.title,
          Description: e.description,
          StartDate: e.startDate,
          Location: e.location,
          Country: e.country,
          Type: e.type,
          EventStatus: e.status,
          NumAttendees: e.attending,
          HelpDeskEmail: e.helplineEmail,
        })),
      };
    },
    async getCalendarAttendeesForEvent({ eventId }) {
      const { event: e, attendees } = found(
        await store.calendarAttendees(eventId),
        `event ${eventId}`,
      );
      return {
        Title: e.title,
        Description: e.description,
        HelplineName: e.helplineName,
        HelplineEmail: e.helplineEmail,
        HelplineTelephone: e.helplineTelephone,
        Attendees: attendees.map((a) => ({
          AttendeeId: a.id,
          Title: a.title,
          FirstName: a.forename,
          SurName: a.surname,
          JobTitle: a.occupation,
          Organisation: a.organisation,
          Status: a.status,
          Email: a.email,
        })),
      };
    },
    async getSubmissionsForEvent2({ eventId, clientUserId }) {
      const { submissions, authors } = found(await store.submissions(eventId), `event ${eventId}`);
      const authorsOf = listsBy(
        authors,
        (a) => a.submissionId,
        (a) => ({
          AttendeeId: a.attendeeId,
          FullName: a.fullName,
        }),
      );
      return submissions.map((s) => ({
        EventId: s.eventId,
        EventTitle: s.eventTitle,
        BookingId: s.bookingId,
        LeadAttendeeId: s.leadAttendeeId,
        LeadAttendeeName: s.leadName,
        NumberOfVotersOne: s.votersOne,
        NumberOfVotersTwo: s.votersTwo,
        CurrentScoreOne: s.scoreOne,
        CurrentScoreTwo: s.scoreTwo,
        NumberOfComments: s.comments,
        IsApproved: s.isApproved,
        // Reviews are recorded per reviewing client user: the flags say whether clientUserId reviewed it.
        CurrentUserReviewedOne: s.reviewedOne && s.clientUserId === clientUserId,
        CurrentUserReviewedTwo: s.reviewedTwo && s.clientUserId === clientUserId,
        AbstractTitle: s.title,
        Authors: authorsOf(s.id),
        AbstractTheme: s.theme,
      }));
    },
    getShows: async () => showResponses(await store.shows()),
    getSpeakersforSeries: async ({ seriesValue }) =>
      (await store.speakers(seriesValue)).map((s) => ({
        SpeakerId: s.id,
        Forename: s.forename,
        Surname: s.surname,
        Occupation: s.occupation,
        Organisation: s.organisation,
        Telephone: s.telephone,
        Email: s.email,
        WebsiteUrl: s.website,
      })),
    getSubClientCompanyList: async () =>
      (await store.subClientCompanies()).map((r) => ({
        Name: r.name,
        ClientCompanyId: r.id,
        ClientCompanyName: r.parent,
      })),
  };
}
