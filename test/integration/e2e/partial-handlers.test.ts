// A server stub with some handlers only ({ partial: true }): the others answer the code the fault
// table raises for notImplemented (NotImplemented in spec/errors.yaml) and are listed when the
// service is created; handler errors go to the operator (stderr by default)
// with name, message and stack, and never to the client.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen, type FaultDef, type LogEntry, type RunningServer } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { operations } from '@evgen/event-management/operations';
import { createEventService, type ServiceHandlers } from '@evgen/event-management/server';
import { BINDING_IDS, WIRE, type BindingId } from '@evgen/event-management/service';
import { KEY } from '../../support/requests.js';
import { bookingDetails, lookupTestKey } from '../../support/stub.js';

const lookupKey = lookupTestKey;

const handlers: Partial<ServiceHandlers> = {
  getBookingDetails: bookingDetails,
  getBooking: () => {
    throw new Error('SQLITE_BUSY: database is locked');
  },
};
const implemented = new Set(Object.keys(handlers));
const missing = Object.values(operations)
  .filter((op) => !implemented.has(op.method))
  .map((op) => op.name);

const byCode = (code: string): FaultDef => WIRE.faults.codes.find((c) => c.code === code)!;
const notImplemented = byCode(WIRE.faults.raisedFor.notImplemented);
const internal = byCode(WIRE.faults.raisedFor.internal);

let server: RunningServer;
const diagnostics: string[] = [];
const logs: LogEntry[] = [];
beforeAll(async () => {
  server = await listen(
    createEventService(handlers, {
      lookupKey,
      partial: true,
      onDiagnostic: (m) => diagnostics.push(m),
      onLog: (e) => logs.push(e),
    }),
  );
});
afterAll(() => server.close());

const client = (binding: BindingId) =>
  new EventServiceClient({
    baseUrl: server.url,
    apiKey: KEY.apiKey,
    secretKey: KEY.secret,
    binding,
  });

describe('createEventService with { partial: true }', () => {
  it('lists the operations it does not implement once, when created', () => {
    expect(missing.length).toBe(Object.keys(operations).length - implemented.size);
    expect(diagnostics[0]).toBe(
      `${missing.length} of ${Object.keys(operations).length} operations are not implemented and answer ${notImplemented.code}: ${missing.join(', ')}`,
    );
  });

  it.each(BINDING_IDS)('serves the implemented operations over %s', async (binding) => {
    expect(await client(binding).getBookingDetails({ bookingId: 4 })).toMatchObject({
      BookingReference: 'PK-4',
    });
  });

  it.each(WIRE.bindings.map((b) => [b.id, b] as const))(
    'answers the notImplemented code for the others over %s',
    async (id, b) => {
      const v11 = b.soapVersion === '1.1';
      await expect(client(id).getAccommodation({ eventId: 1 })).rejects.toMatchObject({
        name: 'ServiceError',
        code: notImplemented.code,
        faultString: 'GetAccommodation is not implemented by this server',
        httpStatus:
          b.kind === 'soap'
            ? v11
              ? notImplemented.soap11Status
              : notImplemented.soap12Status
            : notImplemented.httpStatuses[0],
        ...(b.kind === 'soap'
          ? { soapFaultCode: v11 ? notImplemented.soap11 : notImplemented.soap12 }
          : {}),
      });
    },
  );

  it('refuses a subset of handlers without { partial: true }, naming what is missing', () => {
    // @ts-expect-error the compiler asks for every handler unless partial is set
    expect(() => createEventService(handlers, { lookupKey })).toThrow(
      `no handler for ${missing.join(', ')}: implement them, or pass { partial: true } to answer ${notImplemented.code} for them`,
    );
  });
});

describe('a handler that throws', () => {
  it('is logged to stderr by default with name, message and stack, and never sent', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const entries: LogEntry[] = [];
    const own = await listen(
      createEventService(handlers, { lookupKey, partial: true, onLog: (e) => entries.push(e) }),
    );
    try {
      const c = new EventServiceClient({
        baseUrl: own.url,
        apiKey: KEY.apiKey,
        secretKey: KEY.secret,
      });
      const err = await c.getBooking({ bookingId: 1 }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: internal.code, faultString: internal.message });
      expect(JSON.stringify(err)).not.toContain('SQLITE');
      const lines = stderr.mock.calls.map((args) => args.join(' '));
      const line = lines.find((l) => l.startsWith('internal error in GetBooking'));
      expect(line).toMatch(
        new RegExp(
          `^internal error in GetBooking \\(${WIRE.bindings[0].id}\\), answered "${internal.message}": Error: SQLITE_BUSY: database is locked\n {4}at `,
        ),
      );
      // The log entry keeps the error as data, so a JSON log line shows it.
      expect(JSON.parse(JSON.stringify(entries.at(-1)))).toMatchObject({
        operation: 'GetBooking',
        faultCode: internal.code,
        error: { name: 'Error', message: 'SQLITE_BUSY: database is locked' },
      });
      expect(entries.at(-1)?.error?.stack).toMatch(/\n {4}at /);
    } finally {
      stderr.mockRestore();
      await own.close();
    }
  });
});
