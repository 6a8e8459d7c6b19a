// Durability: kill -9 the server in the middle of a booking load, restart it, and every
// acknowledged booking is there, whole; nothing is half-written.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { EventServiceClient } from '@evgen/event-management/client';
import { openDatabase } from '../../../src/reference/db/open.js';
import { PROJECT_ROOT } from '../../support/ir.js';

let dir: string;
afterAll(() => rm(dir, { recursive: true, force: true }));

function startChild(db: string) {
  const child = spawn(
    'node',
    [join(PROJECT_ROOT, 'src/cli/bin.js'), 'serve', '--db', db, '--port', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const ready = new Promise<{ url: string; apiKey: string; secretKey: string }>(
    (resolve, reject) => {
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        const url = /endpoint: (http:\/\/[^/]+)\//.exec(err)?.[1];
        const key = /APIKey:\s+(\S+)\s+SecretKey:\s+(\S+)/.exec(err);
        if (url && key) resolve({ url, apiKey: key[1]!, secretKey: key[2]! });
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
      setTimeout(() => reject(new Error(`server did not start: ${err}`)), 60_000);
    },
  );
  return { child, ready };
}

it('keeps every acknowledged booking across kill -9', async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-crash-'));
  const db = join(dir, 'events.sqlite');
  const { child, ready } = startChild(db);
  const { url, apiKey, secretKey } = await ready;
  const client = new EventServiceClient({ baseUrl: url, apiKey, secretKey, timeoutMs: 5_000 });
  const acked: { id: number; ref: string }[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop && i < 500; i++) {
      try {
        const r = await client.submitSimpleBookingWithBookingStatus({
          eventId: 1,
          attendeeTypeId: 1,
          ticketTypeId: 1,
          bookingStatusId: 1,
          contactId: 1 + ((w * 31 + i) % 40),
        });
        acked.push({ id: r.BookingId, ref: r.BookingReference });
        if (acked.length === 150) {
          stop = true;
          child.kill('SIGKILL');
        }
      } catch {
        return; // the server is gone
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  await new Promise((r) =>
    child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r),
  );
  expect(child.signalCode).toBe('SIGKILL');
  expect(acked.length).toBeGreaterThanOrEqual(150);

  const reopened = openDatabase(db);
  try {
    const row = reopened.prepare(
      'SELECT reference, (SELECT count(*) FROM attendee WHERE booking_id = b.id) AS attendees, (SELECT count(*) FROM outbox WHERE booking_id = b.id) AS mails FROM booking b WHERE id = ?',
    );
    for (const a of acked)
      expect(row.get(a.id), `booking ${a.id}`).toEqual({
        reference: a.ref,
        attendees: 1,
        mails: 1,
      });
    expect(
      reopened
        .prepare(
          'SELECT count(*) FROM booking b WHERE NOT EXISTS (SELECT 1 FROM attendee a WHERE a.booking_id = b.id)',
        )
        .pluck()
        .get(),
    ).toBe(0);
    expect(reopened.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
  } finally {
    reopened.close();
  }
}, 120_000);
