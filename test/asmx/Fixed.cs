// The fixed data of the ASMX tier's service, as an ASMX service backed by a database with NULL
// columns answers: null strings, lists and objects (XmlSerializer leaves them out), nil nullable
// values, .NET's own date forms (a local offset, UTC, seven fraction digits, DateTime.MinValue)
// and decimal scales (12.5m is "12.5"), void operations and faults. The class the generated
// service delegates to (see asmx.ts: wsdl -server writes an abstract class; each method calls the
// method of the same name here). Auth: the signed AuthenticationHeader (SOAP) or the same values
// as HTTP headers (HTTP GET/POST), as spec/gaps.yaml decides.
using System;
using System.Security.Cryptography;
using System.Text;
using System.Web;
using System.Web.Services.Protocols;
using System.Xml;

public static class Fixed {
  public const string ApiKey = "asmx-key";
  const string Secret = "asmx-secret";
  const string Email = "ada@example.org";

  // --- authentication and faults -----------------------------------------------------------
  public static void Authenticate(ServiceAPI s, string operation) {
    var h = s.AuthenticationHeaderValue;
    var http = HttpContext.Current.Request.Headers;
    string key = h != null ? h.APIKey : http["APIKey"], at = h != null ? h.Timestamp : http["Timestamp"];
    string op = h != null ? h.Operation : (http["Operation"] ?? operation);
    string signature = h != null ? h.Signature : http["Signature"];
    if (key == null || at == null || signature == null) throw Fault("AuthenticationFailed", "credentials missing");
    if (key != ApiKey) throw Fault("AuthenticationFailed", "unknown API key");
    DateTime t;
    if (!DateTime.TryParseExact(at, "yyyy-MM-ddTHH:mm:ss.fffZ", null,
          System.Globalization.DateTimeStyles.AdjustToUniversal, out t)
        || Math.Abs((DateTime.UtcNow - t).TotalSeconds) > 300)
      throw Fault("AuthenticationFailed", "Timestamp malformed or outside the window");
    if (op != operation) throw Fault("AuthenticationFailed", "Operation names another operation");
    var hmac = new HMACSHA1(Encoding.UTF8.GetBytes(Secret));
    if (Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes(op + at))) != signature)
      throw Fault("AuthenticationFailed", "wrong Signature");
  }

  /** A SoapException whose detail carries the ErrorCode of spec/errors.yaml. */
  static SoapException Fault(string code, string message) {
    var doc = new XmlDocument();
    var detail = doc.CreateElement(SoapException.DetailElementName.Name, SoapException.DetailElementName.Namespace);
    var e = doc.CreateElement("ErrorCode", ServiceNamespace);
    e.InnerText = code;
    detail.AppendChild(e);
    return new SoapException(message, SoapException.ClientFaultCode, "", detail);
  }

  static string ServiceNamespace {
    get { return ((System.Web.Services.WebServiceAttribute)Attribute.GetCustomAttribute(typeof(ServiceAPI), typeof(System.Web.Services.WebServiceAttribute))).Namespace; }
  }

  // --- values in .NET's forms ---------------------------------------------------------------
  static DateTime At(int month, int day, int hour) { return new DateTime(2026, month, day, hour, 0, 0); }
  static DateTime Local(DateTime t) { return DateTime.SpecifyKind(t, DateTimeKind.Local); }
  static DateTime Utc(DateTime t) { return DateTime.SpecifyKind(t, DateTimeKind.Utc); }

  static TicketTypeResponse TicketType() {
    return new TicketTypeResponse {
      TicketTypeId = 77, Name = "Standard", Capacity = null, GrossPrice = 12.5m, TaxRate = 0.20000m,
      AttendeeTypes = null, AttendeeCount = 4, NumberOfDaysValid = 2, IsOpen = true,
      AvailabilityStartDate = At(1, 1, 0), AvailabilityEndDate = Utc(At(4, 30, 23)),
      AttendanceType = null, TicketTypeDays = new TicketTypeDayResponse[0],
    };
  }

  static AttendeeResponse[] Attendees() {
    return new[] {
      new AttendeeResponse { AttendeeId = 1, AttendeeReference = "AT-1", AttendeeStatus = "Attending",
        DateCreated = Local(At(3, 1, 10)), AttendeeType = "Delegate", AttendeeTypeId = 11, TicketTypeId = 77,
        Forename = "Ada", Surname = "Lovelace", Email = Email, IsLeadAttendee = true,
        CustomFieldValues = new CustomFieldValueResponse[0] },
      new AttendeeResponse { AttendeeId = 2, AttendeeReference = "AT-2", Title = "Dr", Forename = "Charles",
        Attendance = new[] { At(5, 1, 0) }, DateCreated = At(3, 1, 10).AddTicks(1234567) },
    };
  }

  static BookingResponse Booking(int id) {
    return new BookingResponse { BookingId = id, BookingReference = "BK-" + id, BookingStatus = "Confirmed",
      CreatedDate = Local(At(3, 1, 10)), GrossCost = 120.00m, NetCost = 100.00m, Tax = 20.00m,
      Attendees = Attendees() };
  }

  static Event Event() {
    var key = new XmlDocument().CreateElement("EntityKey", ServiceNamespace);
    key.InnerXml = "<EntitySetName xmlns=\"" + ServiceNamespace + "\">ClientCompanies</EntitySetName>";
    return new Event { EventId = 501, Title = "Conference", Code = "C501", DefaultTaxRate = 0.2m,
      StartDate = At(5, 1, 9), EndDate = Utc(At(5, 2, 17)), IsArchived = false,
      ClientCompanyReference = new EntityReference { Any = new[] { key } } };
  }

  // --- the operations -----------------------------------------------------------------------
  public static void CancelAttendee(string attendeeReference) {
    if (attendeeReference == "AT-404") throw new ArgumentException("no attendee " + attendeeReference);
  }
  public static void CancelBooking(string bookingReference) {
    if (bookingReference == "BK-404") throw new ArgumentException("no booking " + bookingReference);
  }
  public static AccommodationResponse GetAccommodation(int eventId) {
    return eventId == 501 ? new AccommodationResponse() : null;
  }
  public static AttendeeTypeResponse[] GetAttendeeTypes(int eventId) {
    return new[] { new AttendeeTypeResponse { AttendeeTypeId = 11, Name = "Delegate", TicketTypes = new[] { TicketType() } } };
  }
  public static BookableSessionResponse[] GetBookableSessions(int eventId) {
    return new[] { new BookableSessionResponse { BookableSessionId = 31, Title = "Workshop", Code = "", Capacity = 20,
      StartDateTime = At(5, 1, 14), EndDateTime = At(5, 1, 15).AddTicks(5000000), TaxRate = 0.20000m,
      GrossPrice = 25.50000m, WaitingListCapacity = null, MaximumGuests = 3 } };
  }
  public static BookingDetails GetBookingDetails(int bookingId) {
    if (bookingId == 404) throw Fault("NotFound", "no booking 404");
    return new BookingDetails { BookingId = bookingId, BookingReference = "BK-" + bookingId, AttendeeCount = 2,
      SecureKey = "a1b2c3", LeadAttendeeReference = "AT-1" };
  }
  public static BookingResponse GetBooking(int bookingId) { return Booking(bookingId); }
  public static BookingResponse[] GetBookings(int eventId, int skip) {
    return skip == 0 ? new[] { Booking(9001) } : new BookingResponse[0];
  }
  public static BookingResponse[] GetBookingsBatch(int eventId, int skip, int size) {
    if (size < 1) throw new ArgumentOutOfRangeException("size", "size must be 1 or more");
    return GetBookings(eventId, skip);
  }
  public static BookingExtResponse[] GetExtBookings(int eventId, int skip) {
    var a = new AttendeeExtResponse { AttendeeId = 1, AttendeeReference = "AT-1", Email = Email,
      IsLeadAttendee = true, AttendedStatus = true, DateCreated = At(3, 1, 10) };
    return new[] { new BookingExtResponse { BookingId = 9001, BookingReference = "BK-9001", GrossCost = 120.00m,
      NetCost = 100.00m, Tax = 20.00m, CreatedDate = At(3, 1, 10), Attendees = new[] { a } } };
  }
  public static ContactResponse GetContact(string email) {
    return email == Email ? new ContactResponse { Forename = "Ada", Surname = "Lovelace", Email = Email, ContactId = 3 } : null;
  }
  public static ContactResponse2 GetContact2(string emailAddress) {
    return emailAddress == Email ? new ContactResponse2 { ContactId = 3, Reg_Status = 1, Forename = "Ada", Email = Email } : null;
  }
  public static ContactTokenResponse VerifyTokenForContact(string tokenType, string tokenValue) {
    if (tokenValue != "tok-1") throw Fault("NotFound", "unknown token");
    return new ContactTokenResponse { ContactId = 3, ContactEmail = Email };
  }
  public static EventProfileSearchResponseModel EventProfileSearch(string searchQuery) {
    return new EventProfileSearchResponseModel { Events = new[] { new EventModel { Event = Event() } } };
  }
  public static ShowResponse[] GetShows() {
    var p = new ShowPerformanceResponse { ShowPerformanceID = 2, Name = "Opening night", Date = At(6, 1, 0),
      StartTime = At(6, 1, 19), EndTime = At(6, 1, 22), Revenue = 100.10m, Stocktotal = 5m };
    return new[] { new ShowResponse { ShowId = 1, Name = "Hamlet", Revenue = 1500m, StartDate = At(6, 1, 0),
      EndDate = At(6, 30, 0), ShowPerformance = new[] { p } } };
  }
  public static EventDetailsResponse7 GetEventDetails7(int eventId) {
    return new EventDetailsResponse7 { EventId = eventId, Title = "Conference", Code = "C501", Code_Series = "S1",
      RoadshowId = 7, StartDate = At(5, 1, 9).AddTicks(1234567), Venues = new[] { 1, 2 }, Links = new string[0],
      Profiles = new[] { new ProfileValueByEvent { ProfileTypeId = 1, ProfileType = "Sector" } } };
  }
  public static EventDetailsResponse3 GetEventDetails3(int eventId) {
    return new EventDetailsResponse3 { EventId = eventId, Title = "Conference", Code_Series = "S1" };
  }
  public static ContactEventHistoryResponse3[] GetContactEventHistory3(string email) {
    return new[] { new ContactEventHistoryResponse3 { EventId = 501, EventTitle = "Conference", RegDate = Local(At(3, 1, 10)) } };
  }
  public static EventBasicWithTicketTypeResponse[] GetTicketTypesByRoadshowId(int roadshowId) {
    var t = TicketType();
    t.MinAge = 18; t.MinAgeSpecified = true;
    return new[] { new EventBasicWithTicketTypeResponse { EventId = 501, Title = "Conference", StartDate = At(5, 1, 9),
      EndDate = At(5, 2, 17), MaxAllowableGuestsOnRoadshow = 2, TicketTypes = new[] { t } } };
  }
  public static SubmissionBasicResponse[] GetSubmissionsForEvent2(int eventId, int clientUserId) {
    return new[] { new SubmissionBasicResponse { EventId = eventId, BookingId = 9001, AbstractTitle = "On engines",
      Authors = new[] { new AuthorResponse { AttendeeId = 1 } } } };
  }
  public static CalendarEventsResponse GetCalendarEventsByDateRange(DateTime fromDate, DateTime toDate, bool includeArchived) {
    return new CalendarEventsResponse { SystemOwnerEmail = "owner@example.org", Events = new[] {
      new CalendarEventResponse { EventId = 501, Title = "Conference", StartDate = At(5, 1, 9), NumAttendees = 42 } } };
  }
  public static CalendarAttendeesResponse GetCalendarAttendeesForEvent(int eventId) {
    return new CalendarAttendeesResponse { Title = "Conference", Attendees = new CalendarAttendeeResponse[0] };
  }
  public static ContactEventResponse[] GetEventsByContactId(int contactId, bool includeArchived, bool isTestBookingForm) {
    return new[] { new ContactEventResponse { ContactId = contactId, EventId = 501, EventName = "Conference",
      StartDateAndTime = "01/05/2026 09:00" } };
  }
  public static SpeakerSeriesResponse[] GetSpeakersforSeries(string seriesValue) { return null; }
  public static AttendeeStatusResponse[] GetAttendeeStatuses(int eventId) {
    return new[] { new AttendeeStatusResponse { AttendeeStatusId = 1, Name = "Attending", IsAttending = true,
      IsDefault = true, EventId = eventId, LinkedBookingStatusId = 3 } };
  }
  public static CustomFieldResponse[] GetCustomFields(int eventId) {
    return new[] { new CustomFieldResponse { CustomFieldId = 5, Name = "Diet", Type = "Text", Values = new[] { "None", "Vegan" } } };
  }
  public static SimpleBookingResponse SubmitSimpleBookingWithBookingStatus(int eventId, int attendeeTypeId,
      int ticketTypeId, int bookingStatusId, int contactId) {
    return new SimpleBookingResponse { BookingId = 9002, AttendeeId = 2, AttendeeTypeId = attendeeTypeId,
      TicketTypeId = ticketTypeId, ContactId = contactId, EventId = eventId, BookingReference = "BK-9002" };
  }
  public static GetSubClientCompanyListResponse[] GetSubClientCompanyList() {
    return new[] { new GetSubClientCompanyListResponse { Name = "Division 1", ClientCompanyId = 1 } };
  }
}
