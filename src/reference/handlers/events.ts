// Event-level reads: details 3/7, EventProfileSearch, calendar, submissions, shows, speakers and
// sub-client companies. Decision (gap include-archived): includeArchived false leaves archived
// events out of GetCalendarEventsByDateRange; events are those starting within [fromDate, toDate].
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { Db } from '../db/open.js';
import { parseSearch } from '../search.js';
import { bool, invalid, jsonRows, money, requireEvent, type Row } from './common.js';
import { EVENT_SELECT, eventDetailsReader, eventModel, type EventRow } from './event-details.js';

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

export function eventHandlers(db: Db): EventHandlers {
  const setting = db.prepare('SELECT value FROM setting WHERE key = ?').pluck();
  const details = eventDetailsReader(db);
  return {
    getEventDetails3: ({ eventId }) => details.details3(eventId),
    getEventDetails7: ({ eventId }) => details.details7(eventId),
    eventProfileSearch({ searchQuery }) {
      const { where, params } = parseSearch(searchQuery);
      const rows = db
        .prepare(
          `${EVENT_SELECT} WHERE ${where} ORDER BY e.start_date, e.id LIMIT ${MAX_SEARCH_RESULTS}`,
        )
        .all(...params) as EventRow[];
      return { Events: rows.map((r) => eventModel(db, r)) };
    },
    getCalendarEventsByDateRange({ fromDate, toDate, includeArchived }) {
      if (fromDate > toDate) throw invalid(`fromDate ${fromDate} is after toDate ${toDate}`);
      const rows = db
        .prepare(
          `SELECT e.id, e.title, e.description, e.start_date, e.location, e.country, e.type, e.status, e.helpline_email,
          coalesce((SELECT n FROM event_attendee_count WHERE event_id = e.id AND status_type = 'Attending'), 0) AS n
        FROM event e WHERE e.start_date >= ? AND e.start_date <= ? AND (? = 1 OR e.is_archived = 0) ORDER BY e.start_date, e.id`,
        )
        .all(fromDate, toDate, includeArchived ? 1 : 0) as Row[];
      return {
        SystemOwnerEmail: setting.get('system_owner_email') as string,
        SystemOwnerFullname: setting.get('system_owner_name') as string,
        Events: rows.map((e) => ({
          EventId: e.id,
          Title: e.title,
          Description: e.description,
          StartDate: e.start_date,
          Location: e.location,
          Country: e.country,
          Type: e.type,
          EventStatus: e.status,
          NumAttendees: e.n,
          HelpDeskEmail: e.helpline_email,
        })),
      };
    },
    getCalendarAttendeesForEvent({ eventId }) {
      requireEvent(db, eventId);
      const e = db
        .prepare(
          'SELECT title, description, helpline_name, helpline_email, helpline_telephone FROM event WHERE id = ?',
        )
        .get(eventId) as Record<string, string>;
      const people = jsonRows<[number, string, string, string, string, string, string, string]>(
        db,
        `SELECT json_group_array(json_array(a.id, c.title, c.forename, c.surname, c.occupation, c.organisation, s.name, c.email) ORDER BY a.id)
        FROM attendee a JOIN booking b ON b.id = a.booking_id JOIN contact c ON c.id = a.contact_id JOIN attendee_status s ON s.id = a.status_id WHERE b.event_id = ?`,
        eventId,
      );
      return {
        Title: e.title!,
        Description: e.description!,
        HelplineName: e.helpline_name!,
        HelplineEmail: e.helpline_email!,
        HelplineTelephone: e.helpline_telephone!,
        Attendees: people.map(
          ([id, title, forename, surname, occupation, organisation, status, email]) => ({
            AttendeeId: id,
            Title: title,
            FirstName: forename,
            SurName: surname,
            JobTitle: occupation,
            Organisation: organisation,
            Status: status,
            Email: email,
          }),
        ),
      };
    },
    getSubmissionsForEvent2({ eventId, clientUserId }) {
      requireEvent(db, eventId);
      const rows = db
        .prepare(
          `SELECT s.*, e.title AS event_title, c.forename || ' ' || c.surname AS lead_name FROM submission s JOIN event e ON e.id = s.event_id JOIN attendee a ON a.id = s.lead_attendee_id JOIN contact c ON c.id = a.contact_id WHERE s.event_id = ? ORDER BY s.id`,
        )
        .all(eventId) as Row[];
      const authors = db.prepare(
        'SELECT attendee_id, full_name FROM submission_author WHERE submission_id = ? ORDER BY attendee_id',
      );
      return rows.map((s) => ({
        EventId: s.event_id,
        EventTitle: s.event_title,
        BookingId: s.booking_id,
        LeadAttendeeId: s.lead_attendee_id,
        LeadAttendeeName: s.lead_name,
        NumberOfVotersOne: s.voters_one,
        NumberOfVotersTwo: s.voters_two,
        CurrentScoreOne: s.score_one,
        CurrentScoreTwo: s.score_two,
        NumberOfComments: s.comments,
        IsApproved: bool(s.is_approved),
        // Reviews are recorded per reviewing client user: the flags say whether clientUserId reviewed it.
        CurrentUserReviewedOne: bool(s.reviewed_one) && s.client_user_id === clientUserId,
        CurrentUserReviewedTwo: bool(s.reviewed_two) && s.client_user_id === clientUserId,
        AbstractTitle: s.title,
        Authors: (authors.all(s.id) as { attendee_id: number; full_name: string }[]).map((a) => ({
          AttendeeId: a.attendee_id,
          FullName: a.full_name,
        })),
        AbstractTheme: s.theme,
      }));
    },
    getShows() {
      const shows = db.prepare('SELECT * FROM show ORDER BY id').all() as Row[];
      const perfs = db.prepare(
        'SELECT p.*, s.name AS show_name FROM show_performance p JOIN show s ON s.id = p.show_id WHERE p.show_id = ? ORDER BY p.id',
      );
      return shows.map((s) => {
        const ps = (perfs.all(s.id) as Row[]).map((p) => {
          const available = p.stock - p.hold - p.sold;
          const [revenue, cost] = [p.sold * p.price_cents, p.stock * p.unit_cost_cents];
          return {
            ShowPerformanceID: p.id,
            Available: available,
            Hold: p.hold,
            Sold: p.sold,
            ShowName: p.show_name,
            Type: p.type,
            Venue: p.venue,
            Notes: p.notes,
            Name: p.name,
            Date: p.day,
            StartTime: p.start_at,
            EndTime: p.end_at,
            Revenue: money(revenue),
            StockCost: money(p.unit_cost_cents),
            RemainingValue: money(available * p.price_cents),
            Profit: money(revenue - p.sold * p.unit_cost_cents),
            UnsoldRisk: money(available * p.unit_cost_cents),
            FutureProfit: money(available * (p.price_cents - p.unit_cost_cents)),
            CurrentPL: money(revenue - cost),
            Stocktotal: money(p.stock * 100),
            TotalStockCost: money(cost),
            ShowSKU: p.sku ?? null,
            _n: {
              revenue,
              cost,
              available,
              stock: p.stock,
              hold: p.hold,
              sold: p.sold,
              unsold: available * p.unit_cost_cents,
              future: available * (p.price_cents - p.unit_cost_cents),
              profit: revenue - p.sold * p.unit_cost_cents,
            },
          };
        });
        const sum = (k: keyof (typeof ps)[number]['_n']) => ps.reduce((a, p) => a + p._n[k], 0);
        return {
          ShowId: s.id,
          ShowStatus: s.status,
          PNum: s.pnum,
          Available: sum('available'),
          Hold: sum('hold'),
          Sold: sum('sold'),
          Stocktotal: sum('stock'),
          Name: s.name,
          LongName: s.long_name,
          Venue: s.venue,
          Notes: s.notes,
          RTF: s.rtf,
          StartDate: s.start_date,
          EndDate: s.end_date,
          Revenue: money(sum('revenue')),
          TotalStockCost: money(sum('cost')),
          UnsoldRisk: money(sum('unsold')),
          Profit: money(sum('profit')),
          FutureProfit: money(sum('future')),
          CurrentPL: money(sum('revenue') - sum('cost')),
          ShowPerformance: ps.map(({ _n, ...p }) => p),
        };
      });
    },
    getSpeakersforSeries({ seriesValue }) {
      const rows = db
        .prepare(
          'SELECT s.* FROM speaker s JOIN speaker_series ss ON ss.speaker_id = s.id WHERE ss.series = ? ORDER BY s.id',
        )
        .all(seriesValue) as Row[];
      return rows.map((s) => ({
        SpeakerId: s.id,
        Forename: s.forename,
        Surname: s.surname,
        Occupation: s.occupation,
        Organisation: s.organisation,
        Telephone: s.telephone,
        Email: s.email,
        WebsiteUrl: s.website,
      }));
    },
    getSubClientCompanyList() {
      const rows = db
        .prepare(
          'SELECT c.id, c.name, p.name AS parent FROM client_company c JOIN client_company p ON p.id = c.parent_id WHERE c.is_universal = 0 ORDER BY c.id',
        )
        .all() as { id: number; name: string; parent: string }[];
      return rows.map((r) => ({
        Name: r.name,
        ClientCompanyId: r.id,
        ClientCompanyName: r.parent,
      }));
    },
  };
}
