// node-soap, a client nobody on the team wrote, reads the served ?wsdl and calls the generated
// server over SOAP 1.1 and SOAP 1.2 with an AuthenticationHeader it builds itself.
import { createHmac } from 'node:crypto';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '@evgen/runtime';
import { createEventService, type ServiceHandlers } from '@evgen/event-management/server';
import type { BookingResponse, EventDetailsResponse7 } from '@evgen/event-management/types';
import { at, callPort } from '../support/node-soap.js';

const KEY = { apiKey: 'interop-key', secret: 'interop-secret' };
const details: EventDetailsResponse7 = {
  EventId: 42,
  Capacity: 120,
  AttendeeCount: 3,
  AttendeeWaitingListCount: 0,
  AttendeeCancelledCount: 1,
  CPDValue: 5,
  DefaultWebsiteID: 7,
  Code: 'CONF26',
  Description: 'Annual <conference> & expo',
  MediumDescription: 'm',
  LongDescription: 'l',
  HelplineEmail: 'help@example.com',
  HelplineName: 'Help',
  HelplineTelephone: '+44 1',
  Title: 'Conference 2026',
  ExternalURL: 'https://example.com',
  ImageLink: '',
  ImageThumbLink: '',
  Code_Room: 'R1',
  Code_Type: 'CONF',
  Code_Series: 'S1',
  ClientCompanyName: 'Acme',
  DefaultBookingFormName: 'Main',
  DefaultBookingFormUrl: 'https://example.com/book',
  DefaultWebsiteName: 'Site',
  DefaultWebsitePageFriendlyName: 'home',
  Location: 'London',
  Organisers: 'Acme Events',
  EventWaitingListEnabled: true,
  HasCapacityLimits: true,
  IsArchived: false,
  ThirdPartyEvent: false,
  StartDate: '2026-06-01T09:00:00',
  EndDate: '2026-06-02T17:00:00',
  SignupStartDate: '2026-01-01T00:00:00',
  SignupEndDate: '2026-05-31T23:59:59',
  StartTime: '2026-06-01T09:00:00',
  EndTime: '2026-06-02T17:00:00',
  Venues: [3, 4],
  Collaborators: [{ Name: 'Ann', Type: 'Speaker', Order: 1, EventLink: 'x', EventLinkItem: 'y' }],
  Links: ['https://a.example'],
  SubClientCompanyName: 'Acme North',
  Type: 'Conference',
  Analysis01: 'a1',
  Analysis02: 'a2',
  Status: 'Live',
  RoadshowId: 9,
  LastUpdatedDate: '2026-02-03T04:05:06',
  Profiles: [{ ProfileTypeId: 1, ProfileType: 'Sector', ProfileValueName: 'Health' }],
};
const booking: BookingResponse = {
  BookingId: 1001,
  BookingReference: 'CONF-1001',
  BookingStatus: 'Confirmed',
  CreatedDate: '2026-03-04T10:11:12',
  GrossCost: '120.00',
  NetCost: '100.00',
  Tax: '20.00',
  IsTest: false,
  Attendees: [],
};

let server: Awaited<ReturnType<typeof listen>>;
const calls: string[] = [];
beforeAll(async () => {
  const handlers: Partial<ServiceHandlers> = {
    getEventDetails7: ({ eventId }) => (
      calls.push(`GetEventDetails7(${eventId})`),
      { ...details, EventId: eventId }
    ),
    getBookingsBatch: ({ eventId, skip, size }) => (
      calls.push(`GetBookingsBatch(${eventId},${skip},${size})`),
      [booking]
    ),
  };
  server = await listen(
    createEventService(handlers, {
      lookupKey: (k) => Promise.resolve(k === KEY.apiKey ? { secret: KEY.secret } : undefined),
      partial: true, // the operations node-soap calls here: the others answer NotImplemented
      onDiagnostic: () => undefined,
    }),
    { host: '127.0.0.1', port: 0 },
  );
});
afterAll(() => server.close());

// node-soap types values from the schema on its SOAP 1.1 path and leaves strings on its SOAP 1.2
// path; either way the lexical value must be the one the server sent.
function expectLexically(got: unknown, want: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(want)) expect(String(at(got, k)), k).toBe(String(v));
}

let tick = 0;
function authHeader(operation: string, ns: string): string {
  const timestamp = new Date(Date.now() + tick++).toISOString();
  const signature = createHmac('sha1', Buffer.from(KEY.secret, 'utf8'))
    .update(operation + timestamp, 'utf8')
    .digest('base64');
  return `<AuthenticationHeader xmlns="${ns}"><Timestamp>${timestamp}</Timestamp><Operation>${operation}</Operation><Signature>${signature}</Signature><APIKey>${KEY.apiKey}</APIKey></AuthenticationHeader>`;
}

describe.each([
  { version: 'SOAP 1.1', port: 'ServiceAPISoap', options: {} },
  { version: 'SOAP 1.2', port: 'ServiceAPISoap12', options: { forceSoap12Headers: true } },
])('node-soap over $version', ({ port, options }) => {
  /** Calls `operation` through the named port of the served WSDL. */
  async function call(operation: string, args: object): Promise<unknown> {
    const c = await soap.createClientAsync(
      `${server.url}/API/1_0/SOAP/ServiceAPI.asmx?wsdl`,
      options,
    );
    const ns = `https://${new URL(server.url).host}/API/1_0/SOAP/`;
    c.addSoapHeader(authHeader(operation, ns));
    return callPort(c, 'ServiceAPI', port, operation, args);
  }

  it('calls GetEventDetails7 and reads the values', async () => {
    const r = at(await call('GetEventDetails7', { eventId: 42 }), 'GetEventDetails7Result');
    expectLexically(r, {
      EventId: 42,
      Title: 'Conference 2026',
      Description: 'Annual <conference> & expo',
      EventWaitingListEnabled: true,
      IsArchived: false,
      RoadshowId: 9,
    });
    expect([at(r, 'Venues', 'int')].flat().map(String)).toEqual(['3', '4']);
    expectLexically([at(r, 'Profiles', 'ProfileValueByEvent')].flat()[0], {
      ProfileTypeId: 1,
      ProfileValueName: 'Health',
    });
    expect(calls.at(-1)).toBe('GetEventDetails7(42)');
  });

  it('calls GetBookingsBatch and reads the values', async () => {
    const result = await call('GetBookingsBatch', { eventId: 42, skip: 0, size: 10 });
    const b: unknown = [at(result, 'GetBookingsBatchResult', 'BookingResponse')].flat()[0];
    expectLexically(b, { BookingId: 1001, BookingReference: 'CONF-1001', IsTest: false });
    expect(Number(at(b, 'GrossCost'))).toBe(120); // node-soap turns xs:decimal into a JS number; the wire had 120.00
    expect(calls.at(-1)).toBe('GetBookingsBatch(42,0,10)');
  });
});
