// GetEventDetails3/7 and the Event record of EventProfileSearch, from the store's rows.
import type {
  Event,
  EventDetailsCommon,
  EventDetailsResponse3,
  EventDetailsResponse7,
  EventModel,
} from '@evgen/event-management/types';
import type { EventDetailsRecord, EventRow, WebsiteRow } from '../store/records.js';
import { e5 } from './common.js';

/** Demo values the document has fields for and the reference service keeps no data for. */
const IMAGE_BASE = 'https://events.example.com/img';
const COST_CENTRES = 4;
const IMPORT_GUID_PREFIX = '00000000-0000-4000-8000-';
const IMPORT_GUID_DIGITS = 12;

function common({
  event: e,
  venues,
  collaborators,
  links,
}: EventDetailsRecord): EventDetailsCommon {
  return {
    EventId: e.id,
    Capacity: e.capacity,
    AttendeeCount: e.attending,
    AttendeeWaitingListCount: e.waiting,
    AttendeeCancelledCount: e.cancelled,
    CPDValue: e.cpdValue,
    DefaultWebsiteID: e.siteId ?? 0,
    Code: e.code,
    Description: e.description,
    MediumDescription: e.mediumDescription,
    LongDescription: e.longDescription,
    HelplineEmail: e.helplineEmail,
    HelplineName: e.helplineName,
    HelplineTelephone: e.helplineTelephone,
    Title: e.title,
    ExternalURL: e.externalUrl,
    ImageLink: `${IMAGE_BASE}/${e.id}.png`,
    ImageThumbLink: `${IMAGE_BASE}/${e.id}-thumb.png`,
    Code_Room: e.room,
    Code_Type: e.type,
    Code_Series: e.series,
    ClientCompanyName: e.company,
    DefaultBookingFormName: e.bookingForm ?? '',
    DefaultBookingFormUrl: e.siteId !== null ? `${e.siteUrl}/book` : '',
    DefaultWebsiteName: e.siteName ?? '',
    DefaultWebsitePageFriendlyName: e.siteId !== null ? 'home' : '',
    Location: e.location,
    Organisers: e.organisers,
    EventWaitingListEnabled: e.waitingList,
    HasCapacityLimits: e.hasCapacityLimits,
    IsArchived: e.isArchived,
    ThirdPartyEvent: e.thirdParty,
    StartDate: e.startDate,
    EndDate: e.endDate,
    SignupStartDate: e.signupStart,
    SignupEndDate: e.signupEnd,
    StartTime: e.startDate,
    EndTime: e.endDate,
    Venues: venues,
    Collaborators: collaborators.map((c) => ({
      Name: c.name,
      Type: c.type,
      Order: c.order,
      EventLink: c.link,
      EventLinkItem: c.linkItem,
    })),
    Links: links,
  };
}

// Object.assign, not spread: `{ ...common, <8 more> }` leaves V8's fast path for a 41-property
// copy, many times the cost of Object.assign.
// The extensions are typed, so a field the spec adds to or renames in a version fails here.
export function eventDetails3(r: EventDetailsRecord): EventDetailsResponse3 {
  const more: Omit<EventDetailsResponse3, keyof EventDetailsCommon> = { ExternalURLPwd: '' };
  return Object.assign(common(r), more);
}

export function eventDetails7(r: EventDetailsRecord): EventDetailsResponse7 {
  const e = r.event;
  const more: Omit<EventDetailsResponse7, keyof EventDetailsCommon> = {
    SubClientCompanyName: e.subCompany ?? '',
    Type: e.type,
    Analysis01: e.analysis01,
    Analysis02: e.analysis02,
    Status: e.status,
    RoadshowId: e.roadshowId ?? 0,
    LastUpdatedDate: e.lastUpdated,
    Profiles: r.profiles.map((p) => ({
      ProfileTypeId: p.profileTypeId,
      ProfileType: p.profileType,
      ProfileValueName: p.valueName,
    })),
  };
  return Object.assign(common(r), more);
}

export function eventModel(e: EventRow, sites: readonly WebsiteRow[]): EventModel {
  const event: Event = {
    EventId: e.id,
    EventCapacity: e.capacity,
    CPDValue: e.cpdValue,
    Title: e.title,
    Description: e.description,
    Code: e.code,
    BookingReferencePrefix: e.bookingPrefix,
    InvoiceReferencePrefix: e.invoicePrefix,
    HelplineName: e.helplineName,
    HelplineTelephoneNumber: e.helplineTelephone,
    HelplineEmail: e.helplineEmail,
    ExternalSystemId: `EXT-${e.id}`,
    EventLeader: e.organisers,
    Location: e.location,
    Country: e.country,
    Type: e.type,
    EventStatus: e.status,
    StatusCreatedSource: 'Demo data',
    StatusLastUpdatedSource: 'Demo data',
    StatusDeletedSource: '',
    StatusInactiveReason: e.isArchived ? 'Archived' : '',
    ProjectCode: `P-${e.id}`,
    CostCentre: `CC-${e.id % COST_CENTRES}`,
    Series: e.series,
    DelegateInstruction: 'Bring photo ID.',
    Desc_Long: e.longDescription,
    Desc_Med: e.mediumDescription,
    Anal01: e.analysis01,
    Anal02: e.analysis02,
    ExternalURL: e.externalUrl,
    SubClientCo: e.subCompany ?? '',
    Notes: '',
    Room: e.room,
    ImportGuid: `${IMPORT_GUID_PREFIX}${String(e.id).padStart(IMPORT_GUID_DIGITS, '0')}`,
    Links: '',
    Terms: 'Standard terms apply.',
    ExternalURLPwd: '',
    StartDate: e.startDate,
    EndDate: e.endDate,
    SignupStartDate: e.signupStart,
    SignupEndDate: e.signupEnd,
    StatusCreatedDate: e.created,
    StatusLastUpdatedDate: e.lastUpdated,
    StatusDeletedDate: e.created,
    DefaultTaxRate: e5(e.defaultTaxRateE5),
    UseGlobalContactList: true,
    HasCapacityLimits: e.hasCapacityLimits,
    IsArchived: e.isArchived,
    HasSetupBasicDetails: true,
    HasSetupEventCapacity: e.hasCapacityLimits,
    StatusIsDeleted: false,
    StatusIsActive: !e.isArchived,
    ExcludeFromAPI: false,
    ThirdParty: e.thirdParty,
    IsEventFree: false,
    IsTemplateEvent: false,
    ExtFinanceDetails: false,
    EnableWaitingList: e.waitingList,
    VirtualEvent: e.virtual,
    ClientCompanyReference: null,
    CurrencyReference: null,
    Event2Reference: null,
    RoadshowReference: null,
    ClientUserCreatedReference: null,
    ClientUserDeletedReference: null,
    ClientUserLastUpdatedReference: null,
  };
  return {
    Event: event,
    Websites: sites.map((s) => ({
      WebsiteId: s.id,
      Name: s.name,
      Url: s.url,
      IsDefault: s.isDefault,
    })),
  };
}
