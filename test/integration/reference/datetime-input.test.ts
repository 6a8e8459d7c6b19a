// dateTime parameters as other SOAP stacks send them (gap datetime-zones): .NET sends its local
// offset or Z with seven fractional digits, gSOAP always Z. The wall-clock value is kept, so a
// toDate equal to an event's StartDate with an offset still includes that event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENDPOINT,
  authHeaderXml,
  credentialHeaders,
  freshTimestamp,
  post,
  send,
  sign,
  soapNamespaceOf,
  soapRequest,
} from '../../support/requests.js';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
let start: string; // the StartDate of the first event, yyyy-MM-ddTHH:mm:ss
beforeAll(async () => {
  ref = await startReference({ events: 6, bookings: 20 });
  start = await ref.value<string>('SELECT min(start_date) FROM event');
});
afterAll(() => ref.stop());

const OP = 'GetCalendarEventsByDateRange';
const credentials = () => {
  const Timestamp = freshTimestamp();
  const { apiKey, secretKey } = ref.svc.demoKey!;
  return { Timestamp, Operation: OP, Signature: sign(OP, Timestamp, secretKey), APIKey: apiKey };
};
const eventIds = (xml: string) => [...xml.matchAll(/<EventId>(\d+)<\/EventId>/g)].map((m) => m[1]);

async function soapCall(fromDate: string, toDate: string) {
  const ns = soapNamespaceOf(ref.svc.server.url);
  const params = `<fromDate>${fromDate}</fromDate><toDate>${toDate}</toDate><includeArchived>true</includeArchived>`;
  return post(
    `${ref.svc.server.url}${ENDPOINT}`,
    soapRequest('1.1', ns, OP, params, authHeaderXml(ns, credentials())),
    { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ns}${OP}"` },
  );
}

async function getCall(fromDate: string, toDate: string) {
  const query = new URLSearchParams({ fromDate, toDate, includeArchived: 'true' });
  return send(`${ref.svc.server.url}${ENDPOINT}/${OP}?${query}`, {
    headers: credentialHeaders(credentials()),
  });
}

describe('dateTime parameters with a zone', () => {
  // Each toDate is the first event's StartDate as a stack writes it: the event must be listed.
  const cases = [
    { stack: 'plain (the document)', toDate: (s: string) => s },
    { stack: '.NET DateTime.Today, local kind', toDate: (s: string) => `${s}+02:00` },
    { stack: '.NET DateTime, utc kind', toDate: (s: string) => `${s}.0000000Z` },
    { stack: '.NET DateTime.Now west of UTC', toDate: (s: string) => `${s}.0000000-05:00` },
    { stack: 'gSOAP', toDate: (s: string) => `${s}Z` },
  ];
  it.each(cases)('SOAP 1.1 and HTTP GET read $stack as the wall-clock value', async (c) => {
    const given = { fromDate: '2000-01-01T00:00:00Z', toDate: c.toDate(start) };
    const plain = await soapCall('2000-01-01T00:00:00', start);
    for (const res of [
      await soapCall(given.fromDate, given.toDate),
      await getCall(given.fromDate, given.toDate),
    ]) {
      expect(res.status, res.text).toBe(200);
      expect(eventIds(res.text)).toEqual(eventIds(plain.text));
      expect(eventIds(res.text).length).toBeGreaterThan(0);
    }
  });

  it('answers with the document form: no zone in any dateTime of the result', async () => {
    const res = await soapCall('2000-01-01T00:00:00.0000000Z', '2099-12-31T23:59:59+01:00');
    expect(res.status).toBe(200);
    const dates = [...res.text.matchAll(/<StartDate>([^<]*)<\/StartDate>/g)].map((m) => m[1]);
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it('refuses an offset beyond ±14:00 as InvalidParameter naming the parameter', async () => {
    const res = await soapCall('2000-01-01T00:00:00+15:00', start);
    expect(res.status).toBe(500);
    expect(res.text).toContain('InvalidParameter');
    expect(res.text).toMatch(/fromDate.*time zone offset from -14:00 to \+14:00/);
  });
});
