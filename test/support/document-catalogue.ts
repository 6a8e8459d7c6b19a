// The interface document's operation catalogue and resources, written by hand from the document
// (not read from spec/): the spec inventory test holds the spec to them (additions beyond them are
// the project's), and the conformance test double serves the catalogue.
export const DOCUMENT_OPERATIONS = [
  'CancelAttendee',
  'CancelBooking',
  'GetAccommodation',
  'GetAttendeeTypes',
  'GetBookableSessions',
  'GetBookingDetails',
  'GetBooking',
  'GetBookings',
  'GetBookingsBatch',
  'GetExtBookings',
  'GetContact',
  'GetContact2',
  'VerifyTokenForContact',
  'EventProfileSearch',
  'GetShows',
  'GetEventDetails7',
  'GetEventDetails3',
  'GetContactEventHistory3',
  'GetTicketTypesByRoadshowId',
  'GetSubmissionsForEvent2',
  'GetCalendarEventsByDateRange',
  'GetCalendarAttendeesForEvent',
  'GetEventsByContactId',
  'GetSpeakersforSeries',
  'GetAttendeeStatuses',
  'GetCustomFields',
  'SubmitSimpleBookingWithBookingStatus',
  'GetSubClientCompanyList',
];

/** The fields of AttendeeResponse, in the document's order (AttendeeExtResponse adds two). */
const ATTENDEE =
  'AttendeeId int, AttendeeReference string, AttendeeStatus string, DateCreated dateTime, AttendeeType string, AttendeeTypeId int, TicketType string, TicketTypeId int, Title string, Forename string, Surname string, Organisation string, Occupation string, PAName string, MarketingOptOut boolean, Line1 string, Line2 string, Line3 string, Town string, County string, Postcode string, Country string, Email string, Telephone string, Fax string, Mobile string, Website string, IsLeadAttendee boolean, Attendance list of dateTime?, CustomFieldValues list?, BookableSessionSignups list?, Reservations list?';

/** The fields common to versions 3 and 7 of the event details. */
const EVENT_DETAILS =
  'EventId int, Capacity int, AttendeeCount int, AttendeeWaitingListCount int, AttendeeCancelledCount int, CPDValue int, DefaultWebsiteID int, Code string, Description string, MediumDescription string, LongDescription string, HelplineEmail string, HelplineName string, HelplineTelephone string, Title string, ExternalURL string, ImageLink string, ImageThumbLink string, Code_Room string, Code_Type string, Code_Series string, ClientCompanyName string, DefaultBookingFormName string, DefaultBookingFormUrl string, DefaultWebsiteName string, DefaultWebsitePageFriendlyName string, Location string, Organisers string, EventWaitingListEnabled boolean, HasCapacityLimits boolean, IsArchived boolean, ThirdPartyEvent boolean, StartDate dateTime, EndDate dateTime, SignupStartDate dateTime, SignupEndDate dateTime, StartTime dateTime, EndTime dateTime, Venues list of int, Collaborators list of CollaboratorResponse, Links list of string';

/** Each operation's parameters as the catalogue lists them (names on the wire, types). */
export const DOCUMENT_PARAMETERS: Readonly<Record<string, string>> = {
  CancelAttendee: 'attendeeReference string',
  CancelBooking: 'bookingReference string',
  GetAccommodation: 'eventId int',
  GetAttendeeTypes: 'eventId int',
  GetBookableSessions: 'eventId int',
  GetBookingDetails: 'bookingId int',
  GetBooking: 'bookingId int',
  GetBookings: 'eventId int, skip int',
  GetBookingsBatch: 'eventId int, skip int, size int',
  GetExtBookings: 'eventId int, skip int',
  GetContact: 'email string',
  GetContact2: 'emailAddress string',
  VerifyTokenForContact: 'tokenType string, tokenValue string',
  EventProfileSearch: 'searchQuery string',
  GetShows: '',
  GetEventDetails7: 'eventId int',
  GetEventDetails3: 'eventId int',
  GetContactEventHistory3: 'email string',
  GetTicketTypesByRoadshowId: 'roadshowId int',
  GetSubmissionsForEvent2: 'eventId int, clientUserId int',
  GetCalendarEventsByDateRange: 'fromDate dateTime, toDate dateTime, includeArchived boolean',
  GetCalendarAttendeesForEvent: 'eventId int',
  GetEventsByContactId: 'contactId int, includeArchived boolean, isTestBookingForm boolean',
  GetSpeakersforSeries: 'seriesValue string',
  GetAttendeeStatuses: 'eventId int',
  GetCustomFields: 'eventId int',
  SubmitSimpleBookingWithBookingStatus:
    'eventId int, attendeeTypeId int, ticketTypeId int, bookingStatusId int, contactId int',
  GetSubClientCompanyList: '',
};

/**
 * The fields the document gives each type ("Resources and their fields"), by their names on the
 * wire: `Name kind`, where kind is a primitive, a type's name, `list`, `list of X`, or `*` (the
 * document does not show it); `?` marks what it calls nullable. Types and fields the document
 * does not show (accommodation, list items, references, website model) are our decisions, in
 * spec/gaps.yaml, and not here.
 */
export const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  BookingResponse:
    'BookingId int, BookingReference string, BookingStatus string, CreatedDate dateTime, GrossCost decimal, NetCost decimal, Tax decimal, IsTest boolean, Attendees list of AttendeeResponse',
  BookingExtResponse:
    'BookingId int, BookingReference string, BookingStatus string, CreatedDate dateTime, GrossCost decimal, NetCost decimal, Tax decimal, IsTest boolean, Attendees list of AttendeeExtResponse',
  BookingDetails:
    'BookingId int, BookingReference string, AttendeeCount int, InvoiceUrl string, SecureKey string, LeadAttendeeReference string',
  AttendeeResponse: ATTENDEE,
  AttendeeExtResponse: `${ATTENDEE}, CountryCode string, AttendedStatus boolean`,
  EventModel: 'Event Event, Websites list of WebsiteModel',
  Event:
    'EventId int, EventCapacity int, CPDValue int, Title string, Description string, Code string, BookingReferencePrefix string, InvoiceReferencePrefix string, HelplineName string, HelplineTelephoneNumber string, HelplineEmail string, ExternalSystemId string, EventLeader string, Location string, Country string, Type string, EventStatus string, StatusCreatedSource string, StatusLastUpdatedSource string, StatusDeletedSource string, StatusInactiveReason string, ProjectCode string, CostCentre string, Series string, DelegateInstruction string, Desc_Long string, Desc_Med string, Anal01 string, Anal02 string, ExternalURL string, SubClientCo string, Notes string, Room string, ImportGuid string, Links string, Terms string, ExternalURLPwd string, StartDate dateTime, EndDate dateTime, SignupStartDate dateTime, SignupEndDate dateTime, StatusCreatedDate dateTime, StatusLastUpdatedDate dateTime, StatusDeletedDate dateTime, DefaultTaxRate decimal, UseGlobalContactList boolean, HasCapacityLimits boolean, IsArchived boolean, HasSetupBasicDetails boolean, HasSetupEventCapacity boolean, StatusIsDeleted boolean, StatusIsActive boolean, ExcludeFromAPI boolean, ThirdParty boolean, IsEventFree boolean, IsTemplateEvent boolean, ExtFinanceDetails boolean, EnableWaitingList boolean, VirtualEvent boolean, ClientCompanyReference *?, CurrencyReference *?, Event2Reference *?, RoadshowReference *?, ClientUserCreatedReference *?, ClientUserDeletedReference *?, ClientUserLastUpdatedReference *?',
  EventProfileSearchResponseModel: 'Events list of EventModel',
  EventDetailsResponse7: `${EVENT_DETAILS}, SubClientCompanyName string, Type string, Analysis01 string, Analysis02 string, Status string, RoadshowId int, LastUpdatedDate dateTime, Profiles list of ProfileValueByEvent`,
  EventDetailsResponse3: `${EVENT_DETAILS}, ExternalURLPwd string`,
  CollaboratorResponse:
    'Name string, Type string, Order int, EventLink string, EventLinkItem string',
  ProfileValueByEvent: 'ProfileTypeId int, ProfileType string, ProfileValueName string',
  AttendeeTypeResponse: 'AttendeeTypeId int, Name string, TicketTypes list of TicketTypeResponse',
  TicketTypeResponse:
    'TicketTypeId int, Name string, Capacity int?, GrossPrice decimal, TaxRate decimal, AttendeeTypes list?, AttendeeCount int, NumberOfDaysValid int?, IsOpen boolean, AvailabilityStartDate dateTime, AvailabilityEndDate dateTime, AttendanceType list of TicketAttendanceTypeResponse, TicketTypeDays list of TicketTypeDayResponse, MinAge int, ExternalSite boolean',
  TicketAttendanceTypeResponse: 'Id int, Name string',
  TicketTypeDayResponse: 'Date dateTime',
  EventBasicWithTicketTypeResponse:
    'EventId int, Title string, StartDate dateTime, EndDate dateTime, MaxAllowableGuestsOnRoadshow int, TicketTypes list of TicketTypeResponse',
  BookableSessionResponse:
    'BookableSessionId int, Title string, Code string, AllowGuests boolean, Capacity int, StartDateTime dateTime, EndDateTime dateTime, TaxRate decimal, GrossPrice decimal, WaitingListCapacity int?, HasWaitingList boolean, MaximumGuests int?, SignupCount int, WaitingListSignupCount int, VenueName string, VenueRoomName string, AttendeeTicketTypes list of AttendeeTicketTypeResponse',
  AttendeeTicketTypeResponse:
    'AttendeeTypeId int, TicketTypeId int, AttendeeType string, TicketType string',
  ContactResponse2:
    'ContactId int, Reg_Status int, Title string, Forename string, Surname string, Organisation string, Occupation string, PAName string, Line1 string, Line2 string, Line3 string, Town string, County string, Postcode string, Country string, Email string, Telephone string, Fax string, Mobile string, Website string, Code string, Reference string, Password string, ProfileString string, TwitterURL string, FacebookURL string, LinkedInURL string, GoogleURL string, ShortBio string, Bio string, MarketingOptOut boolean, DateOfBirth dateTime, ProfileValues list of ProfileValue',
  ProfileValue: 'Id int, Name string',
  // "starts with the field Title; its remaining fields: not shown"
  ContactResponse: 'Title string',
  ContactTokenResponse: 'ContactId int, ContactEmail string',
  ContactEventHistoryResponse3:
    'EventId int, AttendeeId int, CPDValue int, EventTitle string, Description string, MediumDescription string, AttendeeStatus string, AttendeeStatusType string, BookingStatus string, BookingStatusType string, BookingReference string, Status string, HelplineEmail string, HelplineName string, HelplineTelephone string, Organisers string, ExternalURL string, Code_Type string, Code_Series string, Code_Room string, ClientCompanyName string, SubClientCompanyName string, Location string, EndDate dateTime, StartDate dateTime, SignupEndDate dateTime, SignupStartDate dateTime, RegDate dateTime, LastUpdatedDate dateTime, Attended boolean, EventWaitingListEnabled boolean, ThirdPartyEvent boolean',
  ContactEventResponse:
    'ContactId int, EventId int, EventName string, StartDateAndTime string, CPDValue int, DefaultBookingFormId int, BookingFormUsedId int',
  CalendarEventsResponse:
    'SystemOwnerEmail string, SystemOwnerFullname string, Events list of CalendarEventResponse',
  CalendarEventResponse:
    'EventId int, Title string, Description string, StartDate dateTime, Location string, Country string, Type string, EventStatus string, NumAttendees int, HelpDeskEmail string',
  CalendarAttendeesResponse:
    'Title string, Description string, HelplineName string, HelplineEmail string, HelplineTelephone string, Attendees list of CalendarAttendeeResponse',
  CalendarAttendeeResponse:
    'AttendeeId int, Title string, FirstName string, SurName string, JobTitle string, Organisation string, Status string, Email string',
  AttendeeStatusResponse:
    'AttendeeStatusId int, Name string, IsAttending boolean, IsDefault boolean, StatusType string, EventId int, LinkedBookingStatusId int',
  CustomFieldResponse: 'CustomFieldId int, Name string, Type string, Values list of string',
  SpeakerSeriesResponse:
    'SpeakerId int, Forename string, Surname string, Occupation string, Organisation string, Telephone string, Email string, WebsiteUrl string',
  SubmissionBasicResponse:
    'EventId int, EventTitle string, BookingId int, LeadAttendeeId int, LeadAttendeeName string, NumberOfVotersOne int, NumberOfVotersTwo int, CurrentScoreOne int, CurrentScoreTwo int, NumberOfComments int, IsApproved boolean, CurrentUserReviewedOne boolean, CurrentUserReviewedTwo boolean, AbstractTitle string, Authors list of AuthorResponse, AbstractTheme string',
  AuthorResponse: 'AttendeeId int, FullName string',
  ShowResponse:
    'ShowId int, ShowStatus int, PNum int, Available int, Hold int, Sold int, Stocktotal int, Name string, LongName string, Venue string, Notes string, RTF string, StartDate dateTime, EndDate dateTime, Revenue decimal, TotalStockCost decimal, UnsoldRisk decimal, Profit decimal, FutureProfit decimal, CurrentPL decimal, ShowPerformance list of ShowPerformanceResponse',
  ShowPerformanceResponse:
    'ShowPerformanceID int, Available int, Hold int, Sold int, ShowName string, Type string, Venue string, Notes string, Name string, Date dateTime, StartTime dateTime, EndTime dateTime, Revenue decimal, StockCost decimal, RemainingValue decimal, Profit decimal, UnsoldRisk decimal, FutureProfit decimal, CurrentPL decimal, Stocktotal decimal, TotalStockCost decimal, ShowSKU *?',
  SimpleBookingResponse:
    'BookingId int, AttendeeId int, AttendeeTypeId int, TicketTypeId int, ContactId int, EventId int, BookingReference string',
  GetSubClientCompanyListResponse: 'Name string, ClientCompanyId int, ClientCompanyName string',
};
