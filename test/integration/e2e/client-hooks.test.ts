// The client's onRequest/onResponse hooks see the raw exchange on every binding (and can add a
// header for tracing); a request that gets no answer names the system error behind "fetch failed".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ServiceFault,
  TransportError,
  listen,
  type ClientRequest,
  type ClientResponse,
  type RunningServer,
} from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { createEventService } from '@evgen/event-management/server';
import { WIRE, type BindingId } from '@evgen/event-management/service';
import { ENDPOINT, KEY } from '../../support/requests.js';
import { bookingDetails, lookupTestKey } from '../../support/stub.js';

let server: RunningServer;
const traceIds: (string | undefined)[] = [];
beforeAll(async () => {
  const service = createEventService(
    {
      getBookingDetails: (params) => {
        if (params.bookingId === 0) throw new ServiceFault('NotFound', 'booking 0 does not exist');
        return bookingDetails(params);
      },
    },
    {
      lookupKey: lookupTestKey,
      partial: true,
      onDiagnostic: () => undefined,
    },
  );
  server = await listen((req) => (traceIds.push(req.headers['x-trace-id']), service(req)));
});
afterAll(() => server.close());

function recordingClient(binding: BindingId) {
  const requests: ClientRequest[] = [];
  const responses: ClientResponse[] = [];
  const client = new EventServiceClient({
    baseUrl: server.url,
    apiKey: KEY.apiKey,
    secretKey: KEY.secret,
    binding,
    onRequest: (r) => {
      requests.push(r);
      r.headers['x-trace-id'] = `trace-${requests.length}`;
    },
    onResponse: async (r) => {
      await Promise.resolve(); // hooks may be async
      responses.push(r);
    },
  });
  return { client, requests, responses };
}

describe.each(WIRE.bindings.map((b) => [b.id, b] as const))('hooks over %s', (binding, b) => {
  const soap = b.kind === 'soap';

  it('see the raw request and answer, and send a header the hook adds', async () => {
    const { client, requests, responses } = recordingClient(binding);
    traceIds.length = 0;
    await client.getBookingDetails({ bookingId: 5 });
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req).toMatchObject({ operation: 'GetBookingDetails', binding, attempt: 1 });
    expect(req!.method).toBe(b.method);
    const path = `${server.url}${b.path.replace('{endpoint}', ENDPOINT).replace('{Operation}', 'GetBookingDetails')}`;
    const inQuery = b.kind === 'http' && b.requestContentType === null;
    expect(req!.url).toBe(inQuery ? `${path}?bookingId=5` : path);
    if (soap) expect(req!.body).toMatch(/<AuthenticationHeader[^>]*>.*<GetBookingDetails /s);
    else expect(req!.body).toBe(inQuery ? '' : 'bookingId=5');
    expect(traceIds).toEqual(['trace-1']);

    expect(responses).toHaveLength(1);
    const [res] = responses;
    expect(res).toMatchObject({ operation: 'GetBookingDetails', binding, attempt: 1, status: 200 });
    expect(res!.headers['content-type']).toBe(b.responseContentType);
    expect(res!.body).toContain('<BookingReference>PK-5</BookingReference>');
    expect(res!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('see a fault as it arrived, before it becomes a ServiceError', async () => {
    const { client, responses } = recordingClient(binding);
    await expect(client.getBookingDetails({ bookingId: 0 })).rejects.toMatchObject({
      code: 'NotFound',
    });
    const def = WIRE.faults.codes.find((c) => c.code === 'NotFound')!;
    expect(responses[0]!.status).toBe(
      !soap ? def.httpStatuses[0] : b.soapVersion === '1.1' ? def.soap11Status : def.soap12Status,
    );
    expect(responses[0]!.body).toContain('booking 0 does not exist');
  });
});

describe('a hook that throws', () => {
  it('fails the call with its error, before anything is sent', async () => {
    traceIds.length = 0;
    const client = new EventServiceClient({
      baseUrl: server.url,
      apiKey: KEY.apiKey,
      secretKey: KEY.secret,
      onRequest: () => {
        throw new Error('tracing is down');
      },
    });
    await expect(client.getBookingDetails({ bookingId: 1 })).rejects.toThrow('tracing is down');
    expect(traceIds).toEqual([]);
  });
});

describe('a request that gets no answer', () => {
  it('is a TransportError naming the refused address, not only "fetch failed"', async () => {
    const closed = await listen(() => Promise.reject(new Error('unused')));
    await closed.close();
    const { port } = new URL(closed.url);
    const client = new EventServiceClient({
      baseUrl: closed.url,
      apiKey: KEY.apiKey,
      secretKey: KEY.secret,
    });
    const e = await client.getBookingDetails({ bookingId: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ code: 'network', httpStatus: undefined });
    expect((e as Error).message).toBe(
      `GetBookingDetails over ${WIRE.bindings[0].id} failed: ECONNREFUSED 127.0.0.1:${port} (fetch failed)`,
    );
  });
});
