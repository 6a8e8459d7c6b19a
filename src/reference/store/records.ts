// What the store returns: rows with named fields, dialect-neutral. Money is in integer minor units
// (cents; 1e-5 units for prices and rates), dateTimes are local text yyyy-MM-ddTHH:mm:ss, flags
// are booleans. Handlers turn these into the generated wire types.

export interface BookingRow {
  id: number;
  reference: string;
  status: string;
  created: string;
  grossCents: number;
  netCents: number;
  taxCents: number;
  isTest: boolean;
}

/** A contact's name and address, as attendees and contacts carry them. */
export interface AddressRow {
  title: string;
  forename: string;
  surname: string;
  organisation: string;
  occupation: string;
  paName: string;
  line1: string;
  line2: string;
  line3: string;
  town: string;
  county: string;
  postcode: string;
  country: string;
  email: string;
  telephone: string;
  fax: string;
  mobile: string;
  website: string;
  marketingOptOut: boolean;
}

export interface AttendeeRow extends AddressRow {
  id: number;
  bookingId: number;
  reference: string;
  status: string;
  created: string;
  attendeeType: string;
  attendeeTypeId: number;
  ticketType: string;
  ticketTypeId: number;
  countryCode: string;
  isLead: boolean;
  attended: boolean;
}

export interface AttendeeDayRow {
  attendeeId: number;
  day: string;
}
export interface CustomValueRow {
  attendeeId: number;
  customFieldId: number;
  name: string;
  value: string;
}
export interface SignupRow {
  attendeeId: number;
  sessionId: number;
  title: string;
  isWaitingList: boolean;
}
export interface ReservationRow {
  attendeeId: number;
  id: number;
  performanceId: number;
  quantity: number;
}

/** Bookings with their attendees and the attendees' lists, read in one snapshot. */
export interface BookingSet {
  readonly bookings: BookingRow[];
  readonly attendees: AttendeeRow[];
  readonly days: AttendeeDayRow[];
  readonly customValues: CustomValueRow[];
  readonly signups: SignupRow[];
  readonly reservations: ReservationRow[];
}

export interface BookingSummaryRow {
  id: number;
  reference: string;
  secureKey: string;
  attendeeCount: number;
  leadReference: string | null;
}

/** What the event rows of details and search share. */
export interface EventCoreRow {
  id: number;
  title: string;
  description: string;
  mediumDescription: string;
  longDescription: string;
  code: string;
  helplineName: string;
  helplineTelephone: string;
  helplineEmail: string;
  location: string;
  type: string;
  status: string;
  series: string;
  room: string;
  organisers: string;
  externalUrl: string;
  analysis01: string;
  analysis02: string;
  startDate: string;
  endDate: string;
  signupStart: string;
  signupEnd: string;
  lastUpdated: string;
  capacity: number;
  hasCapacityLimits: boolean;
  cpdValue: number;
  isArchived: boolean;
  waitingList: boolean;
  thirdParty: boolean;
  subCompany: string | null;
}

/** The event, its live attendee counts and its default website, in one row. */
export interface EventDetailsRow extends EventCoreRow {
  roadshowId: number | null;
  company: string;
  attending: number;
  waiting: number;
  cancelled: number;
  siteId: number | null;
  siteName: string | null;
  siteUrl: string | null;
  bookingForm: string | null;
}
export interface CollaboratorRow {
  name: string;
  type: string;
  order: number;
  link: string;
  linkItem: string;
}
export interface ProfileRow {
  profileTypeId: number;
  profileType: string;
  valueName: string;
}
export interface EventDetailsRecord {
  readonly event: EventDetailsRow;
  readonly venues: number[];
  readonly collaborators: CollaboratorRow[];
  readonly links: string[];
  /** Read only when asked for (GetEventDetails7). */
  readonly profiles: ProfileRow[];
}

/** The Event record of EventProfileSearch. */
export interface EventRow extends EventCoreRow {
  bookingPrefix: string;
  invoicePrefix: string;
  country: string;
  created: string;
  virtual: boolean;
  defaultTaxRateE5: number;
}
export interface WebsiteRow {
  eventId: number;
  id: number;
  name: string;
  url: string;
  isDefault: boolean;
}
export interface EventSearchResult {
  readonly events: EventRow[];
  readonly websites: WebsiteRow[];
}

export interface CalendarEventRow {
  id: number;
  title: string;
  description: string;
  startDate: string;
  location: string;
  country: string;
  type: string;
  status: string;
  helplineEmail: string;
  attending: number;
}
export interface CalendarEvents {
  readonly systemOwnerEmail: string;
  readonly systemOwnerName: string;
  readonly events: CalendarEventRow[];
}
export interface CalendarAttendeeRow {
  id: number;
  title: string;
  forename: string;
  surname: string;
  occupation: string;
  organisation: string;
  status: string;
  email: string;
}
export interface HelplineRow {
  title: string;
  description: string;
  helplineName: string;
  helplineEmail: string;
  helplineTelephone: string;
}
export interface CalendarAttendees {
  readonly event: HelplineRow;
  readonly attendees: CalendarAttendeeRow[];
}

export interface SubmissionRow {
  id: number;
  eventId: number;
  eventTitle: string;
  bookingId: number;
  leadAttendeeId: number;
  leadName: string;
  clientUserId: number;
  votersOne: number;
  votersTwo: number;
  scoreOne: number;
  scoreTwo: number;
  comments: number;
  isApproved: boolean;
  reviewedOne: boolean;
  reviewedTwo: boolean;
  title: string;
  theme: string;
}
export interface AuthorRow {
  submissionId: number;
  attendeeId: number;
  fullName: string;
}
export interface Submissions {
  readonly submissions: SubmissionRow[];
  readonly authors: AuthorRow[];
}

export interface ShowRow {
  id: number;
  status: number;
  pnum: number;
  name: string;
  longName: string;
  venue: string;
  notes: string;
  rtf: string;
  startDate: string;
  endDate: string;
}
export interface PerformanceRow {
  id: number;
  showId: number;
  showName: string;
  type: string;
  venue: string;
  notes: string;
  name: string;
  day: string;
  startAt: string;
  endAt: string;
  stock: number;
  hold: number;
  sold: number;
  priceCents: number;
  unitCostCents: number;
  sku: string | null;
}
export interface Shows {
  readonly shows: ShowRow[];
  readonly performances: PerformanceRow[];
}

export interface SpeakerRow {
  id: number;
  forename: string;
  surname: string;
  occupation: string;
  organisation: string;
  telephone: string;
  email: string;
  website: string;
}
export interface SubClientCompanyRow {
  id: number;
  name: string;
  parent: string;
}

export interface TicketTypeRow {
  id: number;
  eventId: number;
  name: string;
  capacity: number | null;
  grossPriceE5: number;
  taxRateE5: number;
  daysValid: number | null;
  isOpen: boolean;
  availableFrom: string;
  availableTo: string;
  minAge: number;
  externalSite: boolean;
  /** Attendees not cancelled. */
  attendees: number;
}
export interface TicketLinkRow {
  ticketTypeId: number;
  attendeeTypeId: number;
}
export interface AttendanceTypeRow {
  ticketTypeId: number;
  id: number;
  name: string;
}
export interface TicketDayRow {
  ticketTypeId: number;
  day: string;
}
/** Ticket types with their attendee types, attendance types and days. */
export interface TicketTypeSet {
  readonly tickets: TicketTypeRow[];
  readonly links: TicketLinkRow[];
  readonly attendance: AttendanceTypeRow[];
  readonly days: TicketDayRow[];
}
export interface AttendeeTypeRow {
  id: number;
  name: string;
}
export interface AttendeeTypes {
  readonly types: AttendeeTypeRow[];
  readonly tickets: TicketTypeSet;
}
export interface RoadshowEventRow {
  id: number;
  title: string;
  startDate: string;
  endDate: string;
}
export interface RoadshowTickets {
  readonly maxGuests: number;
  readonly events: RoadshowEventRow[];
  readonly tickets: TicketTypeSet;
}
export interface SessionRow {
  id: number;
  title: string;
  code: string;
  allowGuests: boolean;
  capacity: number;
  startAt: string;
  endAt: string;
  taxRateE5: number;
  grossPriceE5: number;
  waitingListCapacity: number | null;
  hasWaitingList: boolean;
  maximumGuests: number | null;
  venueName: string;
  venueRoom: string;
  signups: number;
  waiting: number;
}
export interface SessionTicketRow {
  sessionId: number;
  attendeeTypeId: number;
  ticketTypeId: number;
  attendeeType: string;
  ticketType: string;
}
export interface BookableSessions {
  readonly sessions: SessionRow[];
  readonly tickets: SessionTicketRow[];
}
export interface AttendeeStatusRow {
  id: number;
  name: string;
  isAttending: boolean;
  isDefault: boolean;
  statusType: string;
  eventId: number;
  linkedBookingStatusId: number;
}
export interface CustomFieldRow {
  id: number;
  name: string;
  type: string;
}
export interface CustomFieldOptionRow {
  fieldId: number;
  value: string;
}
export interface CustomFields {
  readonly fields: CustomFieldRow[];
  readonly options: CustomFieldOptionRow[];
}

export interface ContactRow extends AddressRow {
  id: number;
  code: string;
  reference: string;
  profileString: string;
  twitter: string;
  facebook: string;
  linkedin: string;
  google: string;
  shortBio: string;
  bio: string;
  dateOfBirth: string;
  regStatus: number;
}
export interface ProfileValueRow {
  id: number;
  name: string;
}
export interface ContactRecord {
  readonly contact: ContactRow;
  readonly profileValues: ProfileValueRow[];
}
export interface ContactHistoryRow {
  eventId: number;
  attendeeId: number;
  cpdValue: number;
  title: string;
  description: string;
  mediumDescription: string;
  attendeeStatus: string;
  attendeeStatusType: string;
  bookingStatus: string;
  bookingStatusType: string;
  bookingReference: string;
  status: string;
  helplineEmail: string;
  helplineName: string;
  helplineTelephone: string;
  organisers: string;
  externalUrl: string;
  type: string;
  series: string;
  room: string;
  company: string;
  subCompany: string | null;
  location: string;
  endDate: string;
  startDate: string;
  signupEnd: string;
  signupStart: string;
  regDate: string;
  lastUpdated: string;
  attended: boolean;
  waitingList: boolean;
  thirdParty: boolean;
}
export interface ContactEventRow {
  eventId: number;
  title: string;
  startDate: string;
  cpdValue: number;
  bookingFormId: number | null;
}

export interface TokenRow {
  id: number;
  contactId: number;
  singleUse: boolean;
  expiresAt: string | null;
  usedAt: string | null;
  email: string;
}

/** What a booking is checked against, read inside its write transaction. */
export interface BookingContext {
  readonly event:
    | {
        id: number;
        bookingPrefix: string;
        capacity: number;
        hasCapacityLimits: boolean;
        title: string;
      }
    | undefined;
  /** The event the attendee type belongs to; undefined when there is no such attendee type. */
  readonly attendeeTypeEventId: number | undefined;
  readonly ticket: { capacity: number | null; grossPriceE5: number; taxRateE5: number } | undefined;
  readonly ticketAllowsAttendeeType: boolean;
  readonly bookingStatusExists: boolean;
  readonly contact: { email: string; forename: string; surname: string } | undefined;
  /** Attendees not cancelled, in the event and with the ticket type. */
  readonly activeInEvent: number;
  readonly activeWithTicket: number;
  /** The attendee status a new attendee gets: linked to the booking status, else the default. */
  readonly attendeeStatusId: number | undefined;
}

export interface NewBooking {
  readonly id: number;
  readonly eventId: number;
  readonly reference: string;
  readonly statusId: number;
  readonly contactId: number;
  readonly created: string;
  readonly grossCents: number;
  readonly netCents: number;
  readonly taxCents: number;
  readonly secureKey: string;
  readonly attendee: {
    readonly id: number;
    readonly reference: string;
    readonly statusId: number;
    readonly attendeeTypeId: number;
    readonly ticketTypeId: number;
  };
  readonly mail: { readonly recipient: string; readonly subject: string; readonly body: string };
}
