// Calls per second of the generated client and of node-soap's client, 8 calls in flight each,
// against the reference service in its own process (children.ts). The client runs in the bench
// process: client and server each have an event loop of their own (on 2 cores, one core each).
import * as soap from 'soap';
import { EventServiceClient } from '@evgen/event-management/client';
import type { ServerInfo } from './children.js';
import type { Key } from './load.js';
import { increasingTimestamps, signature } from './soap.js';

const PATH = '/API/1_0/SOAP/ServiceAPI.asmx';

/** node-soap makes its client's methods from the WSDL at run time: they are untyped. */
type AsyncMethod = (args: object) => Promise<unknown>;
const isAsyncMethod = (v: unknown): v is AsyncMethod => typeof v === 'function';

export interface ClientFigures {
  readonly oursCallsPerSec: number;
  readonly nodeSoapCallsPerSec: number;
}

/** Calls per second of `concurrency` workers calling in a loop; each worker owns its own state. */
async function callsPerSecond(
  call: (worker: number) => Promise<unknown>,
  seconds: number,
  concurrency = 8,
): Promise<number> {
  let n = 0;
  const start = performance.now();
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (Date.now() < end) {
        await call(worker);
        n++;
      }
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

/** `server.keys` needs two pairs: one per client, so their timestamps never meet. */
export async function benchClient(server: ServerInfo, seconds: number): Promise<ClientFigures> {
  const [ourKey, soapKey] = server.keys as [Key, Key];
  const { eventId, ns } = server;
  const client = new EventServiceClient({
    baseUrl: server.url,
    apiKey: ourKey.apiKey,
    secretKey: ourKey.secretKey,
  });
  // Each client first calls for a second unmeasured: the server and the client warm up (JIT,
  // connections), so neither figure depends on going first.
  const ours = () => client.getEventDetails7({ eventId });
  await callsPerSecond(ours, 1);
  const oursCallsPerSec = await callsPerSecond(ours, seconds);

  // One node-soap client per worker, so headers never race.
  const soapClients = await Promise.all(
    Array.from({ length: 8 }, () => soap.createClientAsync(`${server.url}${PATH}?wsdl`)),
  );
  const nextTimestamp = increasingTimestamps();
  const call = async (worker: number) => {
    const c = soapClients[worker]!;
    const ts = nextTimestamp();
    c.clearSoapHeaders();
    c.addSoapHeader(
      `<AuthenticationHeader xmlns="${ns}"><Timestamp>${ts}</Timestamp><Operation>GetEventDetails7</Operation><Signature>${signature('GetEventDetails7', ts, soapKey)}</Signature><APIKey>${soapKey.apiKey}</APIKey></AuthenticationHeader>`,
    );
    const method: unknown = c.GetEventDetails7Async;
    if (!isAsyncMethod(method)) throw new Error('node-soap made no GetEventDetails7Async');
    await method.call(c, { eventId });
  };
  await callsPerSecond(call, 1);
  const nodeSoapCallsPerSec = await callsPerSecond(call, seconds);
  return { oursCallsPerSec, nodeSoapCallsPerSec };
}
