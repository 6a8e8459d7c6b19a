// Event records of the double, from the document (Resources: Event record, Accommodation, Bookable
// session) and the decisions of spec/gaps.yaml (website-model, accommodation-content,
// decimal-scales), each with the defects that break those decisions.
import type { Implemented } from './records.js';
import { each, el, nil, type Has } from './xml.js';

const EVENT_IDS = [501, 502];
const knownEvent = (p: Record<string, string>) => EVENT_IDS.includes(Number(p.eventId));

/** The Event record, its fields grouped by type as the document lists them. */
function event(id: number, has: Has, binding: string): string {
  const strings =
    'Title Description Code BookingReferencePrefix InvoiceReferencePrefix HelplineName HelplineTelephoneNumber HelplineEmail ExternalSystemId EventLeader Location Country Type EventStatus StatusCreatedSource StatusLastUpdatedSource StatusDeletedSource StatusInactiveReason ProjectCode CostCentre Series DelegateInstruction Desc_Long Desc_Med Anal01 Anal02 ExternalURL SubClientCo Notes Room ImportGuid Links Terms ExternalURLPwd';
  const dates =
    'StartDate EndDate SignupStartDate SignupEndDate StatusCreatedDate StatusLastUpdatedDate StatusDeletedDate';
  const booleans =
    'UseGlobalContactList HasCapacityLimits IsArchived HasSetupBasicDetails HasSetupEventCapacity StatusIsDeleted StatusIsActive ExcludeFromAPI ThirdParty IsEventFree IsTemplateEvent ExtFinanceDetails EnableWaitingList VirtualEvent';
  const references =
    'ClientCompanyReference CurrencyReference Event2Reference RoadshowReference ClientUserCreatedReference ClientUserDeletedReference ClientUserLastUpdatedReference';
  const reference = (n: string) =>
    has('entity-references') ? entityReference(n) : nil(n, has, binding);
  return el(
    'Event',
    el('EventId', id) +
      each('EventCapacity CPDValue', () => 100) +
      each(strings, (n) => `${n} of ${id}`) +
      each(dates, () => '2026-05-01T09:00:00') +
      el('DefaultTaxRate', '0.20000') +
      each(booleans, () => 'false') +
      references.split(' ').map(reference).join(''),
  );
}

/** What Entity Framework puts in a reference element: the related record's key. */
const entityReference = (name: string) =>
  el(
    name,
    el(
      'EntityKey',
      el('EntitySetName', name.replace(/Reference$/, 's')) +
        el('EntityContainerName', 'Entities') +
        el(
          'EntityKeyValues',
          el('EntityKeyMember', el('Key', 'Id') + '<Value xsi:type="xsd:int">1</Value>'),
        ),
    ),
  );

/** A website in the decided WebsiteModel shape, or (defect) in a model of its own. */
const website = (id: number, has: Has) =>
  el(
    'WebsiteModel',
    has('website-wrong-model')
      ? el('Id', id) + el('Address', `https://example.org/${id}`)
      : el('WebsiteId', id) +
          el('Name', `Site ${id}`) +
          el('Url', `https://example.org/${id}`) +
          el('IsDefault', 'true'),
  );

function bookableSession(has: Has, binding: string): string {
  return el(
    'BookableSessionResponse',
    el('BookableSessionId', 31) +
      el('Title', 'Workshop') +
      el('Code', '') +
      el('AllowGuests', 'false') +
      el('Capacity', 20) +
      each('StartDateTime EndDateTime', () => '2026-05-01T14:00:00') +
      el('TaxRate', '0.20000') +
      el('GrossPrice', has('session-price-scale') ? '25.5' : '25.50000') +
      nil('WaitingListCapacity', has, binding) +
      el('HasWaitingList', 'false') +
      nil('MaximumGuests', has, binding) +
      each('SignupCount WaitingListSignupCount', () => 0) +
      each('VenueName VenueRoomName', (n) => n) +
      el(
        'AttendeeTicketTypes',
        el(
          'AttendeeTicketTypeResponse',
          el('AttendeeTypeId', 11) +
            el('TicketTypeId', 77) +
            el('AttendeeType', 'Delegate') +
            el('TicketType', 'Standard'),
        ),
      ),
  );
}

export const EVENT_RECORDS: Readonly<Record<string, Implemented>> = {
  EventProfileSearch: (_p, has, binding) => ({
    inner: el(
      'Events',
      EVENT_IDS.map((id) =>
        el('EventModel', event(id, has, binding) + el('Websites', website(id, has))),
      ).join(''),
    ),
    httpRoot: 'EventProfileSearchResponseModel',
  }),
  GetAccommodation: (p, has) =>
    knownEvent(p)
      ? {
          // ASMX: a null result (the event has no accommodation).
          inner: has('omitted-nulls')
            ? null
            : has('accommodation-content')
              ? el('HotelName', 'Grand Hotel')
              : '',
          httpRoot: 'AccommodationResponse',
        }
      : null,
  GetBookableSessions: (p, has, binding) =>
    knownEvent(p)
      ? { inner: bookableSession(has, binding), httpRoot: 'ArrayOfBookableSessionResponse' }
      : null,
};
