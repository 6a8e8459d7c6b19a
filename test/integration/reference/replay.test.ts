// Replay protection shared through the database, reproduced first on the code that kept it in one
// process's memory: a byte-identical booking refused by one process was accepted by a second on
// the same database (two bookings), and a CancelBooking replayed after a restart got 200. Also:
// nothing caps the record (the in-memory store let a request inside its window through after
// 200,000 others), and expired entries are pruned.
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/reference/db/open.js';
import { SqliteReplayStore } from '../../../src/reference/db/replay-store.js';
import {
  ENDPOINT,
  authHeaderXml,
  sign,
  soapNamespaceOf,
  soapRequest,
} from '../../support/requests.js';
import { serve, stop } from './serve-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-replay-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

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

const bookings = (db: string) => {
  const h = openDatabase(db, { migrate: false, readOnly: true });
  try {
    return h.prepare('SELECT count(*) FROM booking').pluck().get() as number;
  } finally {
    h.close();
  }
};

describe('replay protection in the database', () => {
  it('is seen by a second process and after a restart', async () => {
    const db = join(dir, 'shared.sqlite');
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
      const before = bookings(db);
      const first = await book(urlA);
      expect(first.status).toBe(200);
      const again = await book(urlB);
      expect(again.status).toBe(500);
      expect(again.text).toContain('replayed request');
      expect(bookings(db)).toBe(before + 1);

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
    }
  }, 120_000);

  it('keeps every entry inside its window, however many come after it, and prunes expired ones', async () => {
    const db = openDatabase(join(dir, 'record.sqlite'));
    try {
      const store = new SqliteReplayStore(db);
      const now = Date.now();
      expect(await store.seen('first', now + 300_000, now)).toBe(false);
      db.exec('BEGIN');
      for (let i = 0; i < 210_000; i++) await store.seen(`k${i}`, now + 300_000, now);
      db.exec('COMMIT');
      expect(await store.seen('first', now + 300_000, now)).toBe(true);
      // Past the window: the entry may be used again, and the pruning removed every expired one.
      const later = now + 300_001 + 1_000;
      expect(await store.seen('first', later + 300_000, later)).toBe(false);
      expect(db.prepare('SELECT count(*) FROM replay_record').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  }, 60_000);
});
