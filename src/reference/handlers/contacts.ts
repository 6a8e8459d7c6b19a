// Contacts and their events. Decisions (gap include-archived, contact-password): GetEventsByContactId
// lists events where the contact has an attendee; includeArchived false leaves archived events out;
// isTestBookingForm true lists events reached through test bookings only, false through real ones.
// Password is always nil: only salted hashes are stored.
import { quoteInput } from '@evgen/runtime/internal';
import { fault } from '../faults.js';
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { ContactResponse, ContactResponse2 } from '@evgen/event-management/types';
import { derivedOnce } from '../frozen.js';
import type { ContactRecord, ContactRow } from '../store/records.js';
import type { ReferenceStore } from '../store/store.js';
import { TOKEN_TYPE } from '../tokens.js';
import { found } from './common.js';

type ContactHandlers = Pick<
  ServiceHandlers,
  | 'getContact'
  | 'getContact2'
  | 'getContactEventHistory3'
  | 'getEventsByContactId'
  | 'verifyTokenForContact'
>;

// Typed, so a field the spec renames or adds fails the type check here (a spread is not checked).
const address = (c: ContactRow): Omit<ContactResponse, 'ContactId' | 'MarketingOptOut'> => ({
  Title: c.title,
  Forename: c.forename,
  Surname: c.surname,
  Organisation: c.organisation,
  Occupation: c.occupation,
  PAName: c.paName,
  Line1: c.line1,
  Line2: c.line2,
  Line3: c.line3,
  Town: c.town,
  County: c.county,
  Postcode: c.postcode,
  Country: c.country,
  Email: c.email,
  Telephone: c.telephone,
  Fax: c.fax,
  Mobile: c.mobile,
  Website: c.website,
});

const tokenFault = (message: string) => fault('NotFound', message);

// A kept record (the read cache's) answers with the same frozen value each time: its XML is made once.
const contactOf = derivedOnce(
  ({ contact: c }: ContactRecord): ContactResponse => ({
    ...address(c),
    ContactId: c.id,
    MarketingOptOut: c.marketingOptOut,
  }),
);
const contact2Of = derivedOnce(
  ({ contact: c, profileValues }: ContactRecord): ContactResponse2 => ({
    ContactId: c.id,
    Reg_Status: c.regStatus,
    ...address(c),
    Code: c.code,
    Reference: c.reference,
    Password: null,
    ProfileString: c.profileString,
    TwitterURL: c.twitter,
    FacebookURL: c.facebook,
    LinkedInURL: c.linkedin,
    GoogleURL: c.google,
    ShortBio: c.shortBio,
    Bio: c.bio,
    MarketingOptOut: c.marketingOptOut,
    DateOfBirth: c.dateOfBirth,
    ProfileValues: profileValues.map((v) => ({ Id: v.id, Name: v.name })),
  }),
);

export function contactHandlers(store: ReferenceStore): ContactHandlers {
  const byEmail = async (email: string) =>
    found(await store.contactByEmail(email), `contact ${quoteInput(email)}`);
  return {
    getContact: async ({ email }) => contactOf(await byEmail(email)),
    getContact2: async ({ emailAddress }) => contact2Of(await byEmail(emailAddress)),
    async getContactEventHistory3({ email }) {
      const { contact } = await byEmail(email);
      return (await store.contactHistory(contact.id)).map((r) => ({
        EventId: r.eventId,
        AttendeeId: r.attendeeId,
        CPDValue: r.cpdValue,
        EventTitle: r.title,
        Description: r.description,
        MediumDescription: r.mediumDescription,
        AttendeeStatus: r.attendeeStatus,
        AttendeeStatusType: r.attendeeStatusType,
        BookingStatus: r.bookingStatus,
        BookingStatusType: r.bookingStatusType,
        BookingReference: r.bookingReference,
        Status: r.status,
        HelplineEmail: r.helplineEmail,
        HelplineName: r.helplineName,
        HelplineTelephone: r.helplineTelephone,
        Organisers: r.organisers,
        ExternalURL: r.externalUrl,
        Code_Type: r.type,
        Code_Series: r.series,
        Code_Room: r.room,
        ClientCompanyName: r.company,
        SubClientCompanyName: r.subCompany ?? '',
        Location: r.location,
        EndDate: r.endDate,
        StartDate: r.startDate,
        SignupEndDate: r.signupEnd,
        SignupStartDate: r.signupStart,
        RegDate: r.regDate,
        LastUpdatedDate: r.lastUpdated,
        Attended: r.attended,
        EventWaitingListEnabled: r.waitingList,
        ThirdPartyEvent: r.thirdParty,
      }));
    },
    async getEventsByContactId({ contactId, includeArchived, isTestBookingForm }) {
      const rows = found(
        await store.contactEvents(contactId, includeArchived, isTestBookingForm),
        `contact ${contactId}`,
      );
      return rows.map((e) => ({
        ContactId: contactId,
        EventId: e.eventId,
        EventName: e.title,
        StartDateAndTime: e.startDate,
        CPDValue: e.cpdValue,
        DefaultBookingFormId: e.bookingFormId ?? 0,
        BookingFormUsedId: e.bookingFormId ?? 0,
      }));
    },
    async verifyTokenForContact({ tokenType, tokenValue }) {
      if (tokenType !== TOKEN_TYPE)
        throw fault(
          'InvalidParameter',
          `tokenType must be ${TOKEN_TYPE}, got ${quoteInput(tokenType)}`,
        );
      const now = Date.now();
      return store.tokenTransaction(async (tx) => {
        const t = await tx.token(tokenType, tokenValue);
        if (!t) throw tokenFault('token is unknown');
        if (t.expiresAt !== null && Date.parse(t.expiresAt) <= now)
          throw tokenFault(`token expired at ${t.expiresAt}`);
        if (t.singleUse && t.usedAt !== null)
          throw tokenFault(`single-use token was already used at ${t.usedAt}`);
        if (t.singleUse) await tx.markUsed(t.id, new Date(now).toISOString());
        return { ContactId: t.contactId, ContactEmail: t.email };
      });
    },
  };
}
