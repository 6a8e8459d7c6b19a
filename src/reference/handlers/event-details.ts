// GetEventDetails3/7 and the Event record of EventProfileSearch.
import type { Event, EventDetailsCommon, EventDetailsResponse3, EventDetailsResponse7, EventModel } from '../../../generated/src/types.js';
import type { Db } from '../db/open.js';
import { bool, e5, notFound } from './common.js';

export interface EventRow {
  id: number; title: string; description: string; medium_description: string; long_description: string; code: string; booking_prefix: string; invoice_prefix: string;
  helpline_name: string; helpline_telephone: string; helpline_email: string; location: string; country: string; type: string; status: string; series: string; room: string;
  organisers: string; external_url: string; analysis01: string; analysis02: string; start_date: string; end_date: string; signup_start: string; signup_end: string;
  last_updated: string; created: string; capacity: number; has_capacity_limits: number; cpd_value: number; is_archived: number; waiting_list: number; third_party: number;
  virtual: number; default_tax_rate_e5: number; roadshow_id: number | null; company: string; sub_company: string | null;
}

export const EVENT_SELECT = `SELECT e.*, cc.name AS company, sc.name AS sub_company FROM event e JOIN client_company cc ON cc.id = e.client_company_id LEFT JOIN client_company sc ON sc.id = e.sub_client_company_id`;

export function eventRow(db: Db, eventId: number): EventRow {
  const row = db.prepare(`${EVENT_SELECT} WHERE e.id = ?`).get(eventId) as EventRow | undefined;
  if (!row) throw notFound(`event ${eventId}`);
  return row;
}

function common(db: Db, e: EventRow): EventDetailsCommon {
  const counts = db.prepare(`SELECT s.status_type AS t, count(*) AS n FROM attendee a JOIN attendee_status s ON s.id = a.status_id JOIN booking b ON b.id = a.booking_id WHERE b.event_id = ? GROUP BY s.status_type`).all(e.id) as { t: string; n: number }[];
  const count = (t: string) => counts.find((c) => c.t === t)?.n ?? 0;
  const site = db.prepare('SELECT id, name, url, booking_form FROM event_website WHERE event_id = ? ORDER BY is_default DESC, id LIMIT 1').get(e.id) as { id: number; name: string; url: string; booking_form: string } | undefined;
  return {
    EventId: e.id, Capacity: e.capacity, AttendeeCount: count('Attending'), AttendeeWaitingListCount: count('Waiting'), AttendeeCancelledCount: count('Cancelled'), CPDValue: e.cpd_value,
    DefaultWebsiteID: site?.id ?? 0, Code: e.code, Description: e.description, MediumDescription: e.medium_description, LongDescription: e.long_description,
    HelplineEmail: e.helpline_email, HelplineName: e.helpline_name, HelplineTelephone: e.helpline_telephone, Title: e.title, ExternalURL: e.external_url,
    ImageLink: `https://events.example.com/img/${e.id}.png`, ImageThumbLink: `https://events.example.com/img/${e.id}-thumb.png`, Code_Room: e.room, Code_Type: e.type, Code_Series: e.series,
    ClientCompanyName: e.company, DefaultBookingFormName: site?.booking_form ?? '', DefaultBookingFormUrl: site ? `${site.url}/book` : '', DefaultWebsiteName: site?.name ?? '',
    DefaultWebsitePageFriendlyName: site ? 'home' : '', Location: e.location, Organisers: e.organisers, EventWaitingListEnabled: bool(e.waiting_list),
    HasCapacityLimits: bool(e.has_capacity_limits), IsArchived: bool(e.is_archived), ThirdPartyEvent: bool(e.third_party), StartDate: e.start_date, EndDate: e.end_date,
    SignupStartDate: e.signup_start, SignupEndDate: e.signup_end, StartTime: e.start_date, EndTime: e.end_date,
    Venues: db.prepare('SELECT venue_id FROM event_venue WHERE event_id = ? ORDER BY venue_id').pluck().all(e.id) as number[],
    Collaborators: (db.prepare('SELECT name, type, ord, link, link_item FROM event_collaborator WHERE event_id = ? ORDER BY ord').all(e.id) as { name: string; type: string; ord: number; link: string; link_item: string }[]).map((c) => ({ Name: c.name, Type: c.type, Order: c.ord, EventLink: c.link, EventLinkItem: c.link_item })),
    Links: db.prepare('SELECT url FROM event_link WHERE event_id = ? ORDER BY ord').pluck().all(e.id) as string[],
  };
}

export function eventDetails3(db: Db, eventId: number): EventDetailsResponse3 {
  return { ...common(db, eventRow(db, eventId)), ExternalURLPwd: '' };
}

export function eventDetails7(db: Db, eventId: number): EventDetailsResponse7 {
  const e = eventRow(db, eventId);
  const profiles = db.prepare('SELECT profile_type_id, profile_type, value_name FROM event_profile WHERE event_id = ? ORDER BY id').all(e.id) as { profile_type_id: number; profile_type: string; value_name: string }[];
  return {
    ...common(db, e), SubClientCompanyName: e.sub_company ?? '', Type: e.type, Analysis01: e.analysis01, Analysis02: e.analysis02, Status: e.status, RoadshowId: e.roadshow_id ?? 0,
    LastUpdatedDate: e.last_updated, Profiles: profiles.map((p) => ({ ProfileTypeId: p.profile_type_id, ProfileType: p.profile_type, ProfileValueName: p.value_name })),
  };
}

export function eventModel(db: Db, e: EventRow): EventModel {
  const event: Event = {
    EventId: e.id, EventCapacity: e.capacity, CPDValue: e.cpd_value, Title: e.title, Description: e.description, Code: e.code, BookingReferencePrefix: e.booking_prefix,
    InvoiceReferencePrefix: e.invoice_prefix, HelplineName: e.helpline_name, HelplineTelephoneNumber: e.helpline_telephone, HelplineEmail: e.helpline_email, ExternalSystemId: `EXT-${e.id}`,
    EventLeader: e.organisers, Location: e.location, Country: e.country, Type: e.type, EventStatus: e.status, StatusCreatedSource: 'Demo data', StatusLastUpdatedSource: 'Demo data',
    StatusDeletedSource: '', StatusInactiveReason: e.is_archived ? 'Archived' : '', ProjectCode: `P-${e.id}`, CostCentre: `CC-${e.id % 4}`, Series: e.series, DelegateInstruction: 'Bring photo ID.',
    Desc_Long: e.long_description, Desc_Med: e.medium_description, Anal01: e.analysis01, Anal02: e.analysis02, ExternalURL: e.external_url, SubClientCo: e.sub_company ?? '', Notes: '',
    Room: e.room, ImportGuid: `00000000-0000-4000-8000-${String(e.id).padStart(12, '0')}`, Links: '', Terms: 'Standard terms apply.', ExternalURLPwd: '', StartDate: e.start_date,
    EndDate: e.end_date, SignupStartDate: e.signup_start, SignupEndDate: e.signup_end, StatusCreatedDate: e.created, StatusLastUpdatedDate: e.last_updated, StatusDeletedDate: e.created,
    DefaultTaxRate: e5(e.default_tax_rate_e5), UseGlobalContactList: true, HasCapacityLimits: bool(e.has_capacity_limits), IsArchived: bool(e.is_archived), HasSetupBasicDetails: true,
    HasSetupEventCapacity: bool(e.has_capacity_limits), StatusIsDeleted: false, StatusIsActive: !e.is_archived, ExcludeFromAPI: false, ThirdParty: bool(e.third_party),
    IsEventFree: false, IsTemplateEvent: false, ExtFinanceDetails: false, EnableWaitingList: bool(e.waiting_list), VirtualEvent: bool(e.virtual),
    ClientCompanyReference: null, CurrencyReference: null, Event2Reference: null, RoadshowReference: null, ClientUserCreatedReference: null, ClientUserDeletedReference: null, ClientUserLastUpdatedReference: null,
  };
  const sites = db.prepare('SELECT id, name, url, is_default FROM event_website WHERE event_id = ? ORDER BY id').all(e.id) as { id: number; name: string; url: string; is_default: number }[];
  return { Event: event, Websites: sites.map((s) => ({ WebsiteId: s.id, Name: s.name, Url: s.url, IsDefault: bool(s.is_default) })) };
}
