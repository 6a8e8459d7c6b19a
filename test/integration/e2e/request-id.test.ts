// The engine's `requestId` option: the id is on the request's log entry and at the end of an
// internal fault's text (the caller's handle on the operator's log), and on no other fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceFault, type LogEntry } from '@evgen/runtime';
import {
  ENDPOINT,
  authValues,
  credentialHeaders,
  send,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;
const logs: LogEntry[] = [];
beforeAll(async () => {
  h = await startHarness(
    {
      getBooking: () => {
        throw new Error('SQLITE_ERROR: no such table');
      },
      getBookingDetails: ({ bookingId }) => {
        throw new ServiceFault('NotFound', `booking ${bookingId} does not exist`);
      },
    },
    { onLog: (e) => logs.push(e), requestId: (req) => req.headers['x-request-id'] },
  );
});
afterAll(() => h.server.close());

const call = (op: string, id?: string) =>
  send(`${h.server.url}${ENDPOINT}/${op}?bookingId=9`, {
    headers: { ...credentialHeaders(authValues(op)), ...(id ? { 'x-request-id': id } : {}) },
  });

describe('requestId', () => {
  it('ends an internal fault with the id, and logs it with the error', async () => {
    logs.length = 0;
    const res = await call('GetBooking', 'req-42');
    expect(res.status).toBe(500);
    expect(res.text).toBe('Internal: Internal error (request req-42)\n');
    expect(logs).toMatchObject([{ requestId: 'req-42', faultCode: 'Internal' }]);
    expect(h.diagnostics.at(-1)).toContain('answered "Internal error (request req-42)"');
  });

  it('leaves other faults as the handler wrote them; the log entry still has the id', async () => {
    logs.length = 0;
    const res = await call('GetBookingDetails', 'req-43');
    expect(res.text).toBe('NotFound: booking 9 does not exist\n');
    expect(logs).toMatchObject([{ requestId: 'req-43', faultCode: 'NotFound' }]);
  });

  it('without an id the text is the spec message alone and the entry has no id', async () => {
    logs.length = 0;
    const res = await call('GetBooking');
    expect(res.text).toBe('Internal: Internal error\n');
    expect(logs[0]).not.toHaveProperty('requestId');
  });
});
