// Replay protection shared through the database, reproduced first on the code that kept it in one
// process's memory: a byte-identical booking refused by one process was accepted by a second on
// the same database (two bookings), and a CancelBooking replayed after a restart got 200. On the
// pg tier the processes are two nodes on one PostgreSQL database.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { newDatabase, reader, withDatabase } from '../../support/backend.js';
import {
  ENDPOINT,
  authHeaderXml,
  sign,
  soapNamespaceOf,
  soapRequest,
} from '../../support/requests.js';
import { serve, stop } from './serve-process.js';

/** A POST with a Host header of our choosing (fetch sets its own), so two servers see one namespace. */
function postAs(host: string, url: string, body: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      { hostname, port, method: 'POST', path: ENDPOINT, headers: { ...headers, host } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject).end(body);
  });
}

const HOST = 'events.test';
const NS = soapNamespaceOf(`http://${HOST}`);

/** One signed SOAP 1.1 request, as fixed bytes that can be sent again to any server. */
function signed(key: { apiKey: string; secretKey: string }, op: string, params: string) {
  const Timestamp = new Date().toISOString();
  const auth = {
    Timestamp,
    Operation: op,
    Signature: sign(op, Timestamp, key.secretKey),
    APIKey: key.apiKey,
  };
  const body = soapRequest('1.1', NS, op, params, authHeaderXml(NS, auth));
  const headers = { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"` };
  return (url: string) => postAs(HOST, url, body, headers);
}

const bookings = (db: string) =>
  withDatabase(db, async (h) => reader(h).value<number>('SELECT count(*) FROM booking'));

describe('replay protection in the database', () => {
  it('is seen by a second process and after a restart', async () => {
    const database = await newDatabase();
    const db = database.target;
    const a = serve(db, '--workers', '1');
    const { url: urlA, key } = await a.ready;
    const b = serve(db, '--workers', '1');
    const { url: urlB } = await b.ready;
    try {
      const book = signed(
        key!,
        'SubmitSimpleBookingWithBookingStatus',
        '<eventId>1</eventId><attendeeTypeId>1</attendeeTypeId><ticketTypeId>1</ticketTypeId><bookingStatusId>1</bookingStatusId><contactId>3</contactId>',
      );
      const before = await bookings(db);
      const first = await book(urlA);
      expect(first.status).toBe(200);
      const again = await book(urlB);
      expect(again.status).toBe(500);
      expect(again.text).toContain('replayed request');
      expect(await bookings(db)).toBe(before + 1);

      const reference = /<BookingReference>([^<]+)</.exec(first.text)![1]!;
      const cancel = signed(
        key!,
        'CancelBooking',
        `<bookingReference>${reference}</bookingReference>`,
      );
      expect((await cancel(urlA)).status).toBe(200);
      await Promise.all([stop(a), stop(b)]);
      const c = serve(db, '--workers', '1');
      const { url: urlC } = await c.ready;
      try {
        const replayed = await cancel(urlC);
        expect(replayed.status).toBe(500);
        expect(replayed.text).toContain('replayed request');
      } finally {
        await stop(c);
      }
    } finally {
      await Promise.all([stop(a), stop(b)]);
      await database.remove();
    }
  }, 120_000);

  it('accepts exactly one of the same request sent to two processes at once', async () => {
    const database = await newDatabase();
    const db = database.target;
    const a = serve(db, '--workers', '2');
    const b = serve(db, '--workers', '2');
    try {
      const [ra, rb] = await Promise.all([a.ready, b.ready]);
      const [urlA, urlB] = [ra.url, rb.url];
      // The demo key is printed by whichever process seeded the new database.
      const book = signed(
        (ra.key ?? rb.key)!,
        'SubmitSimpleBookingWithBookingStatus',
        '<eventId>1</eventId><attendeeTypeId>1</attendeeTypeId><ticketTypeId>1</ticketTypeId><bookingStatusId>1</bookingStatusId><contactId>3</contactId>',
      );
      const before = await bookings(db);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => book(i % 2 ? urlA : urlB)),
      );
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of answers.filter((r) => r.status !== 200))
        expect(r.text).toContain('replayed request');
      expect(await bookings(db)).toBe(before + 1);
    } finally {
      await Promise.all([stop(a), stop(b)]);
      await database.remove();
    }
  }, 120_000);
});
