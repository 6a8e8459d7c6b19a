// The server and client figures: the reference service against a bare node:http server answering
// a fixed body of the same size (the ceiling) and node-soap serving the same operation from the
// same WSDL with the same data; then calls per second of the generated client and node-soap's.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as soap from 'soap';
import { EventServiceClient } from '../../generated/src/client.js';
import { renderWsdl } from '../../generated/src/wsdl.js';
import { createKey } from '../reference/keys.js';
import { startReferenceService } from '../reference/serve.js';
import { load, type LoadFigures } from './load.js';

const PATH = '/API/1_0/SOAP/ServiceAPI.asmx';

export interface ServerFigures {
  readonly operation: string;
  readonly responseBytes: number;
  readonly ours: LoadFigures;
  readonly bare: LoadFigures;
  readonly nodeSoap: LoadFigures;
}

export interface ClientFigures {
  readonly oursCallsPerSec: number;
  readonly nodeSoapCallsPerSec: number;
}

const listenOn = (server: Server) => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

function soapBody(ns: string, operation: string, params: string, apiKey: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header><AuthenticationHeader xmlns="${ns}"><Timestamp>__TIMESTAMP__</Timestamp><Operation>${operation}</Operation><Signature>__SIGNATURE__</Signature><APIKey>${apiKey}</APIKey></AuthenticationHeader></soap:Header><soap:Body><${operation} xmlns="${ns}">${params}</${operation}></soap:Body></soap:Envelope>`;
}

/** Calls per second of `concurrency` workers calling in a loop; each worker owns its own state. */
async function callsPerSecond(call: (worker: number) => Promise<unknown>, seconds: number, concurrency = 8): Promise<number> {
  let n = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async (_, worker) => {
    while (Date.now() < end) {
      await call(worker);
      n++;
    }
  }));
  return n / seconds;
}

export async function benchServers(duration: number): Promise<{ servers: ServerFigures[]; client: ClientFigures }> {
  const dir = await mkdtemp(join(tmpdir(), 'evgen-bench-'));
  const ref = await startReferenceService({ dbPath: join(dir, 'events.sqlite'), port: 0, log: () => undefined });
  const key = ref.demoKey!;
  const ns = `https://${new URL(ref.server.url).host}/API/1_0/SOAP/`;
  const client = new EventServiceClient({ baseUrl: ref.server.url, apiKey: key.apiKey, secretKey: key.secretKey });
  const eventId = ref.db.prepare('SELECT event_id FROM booking GROUP BY event_id ORDER BY count(*) DESC LIMIT 1').pluck().get() as number;
  const cases = [
    { operation: 'GetEventDetails7', params: `<eventId>${eventId}</eventId>`, result: await client.getEventDetails7({ eventId }) },
    { operation: 'GetBookingsBatch', params: `<eventId>${eventId}</eventId><skip>0</skip><size>100</size>`, result: await client.getBookingsBatch({ eventId, skip: 0, size: 100 }) },
  ];

  const servers: ServerFigures[] = [];
  for (const c of cases) {
    const body = soapBody(ns, c.operation, c.params, key.apiKey);
    const headers = { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ns}${c.operation}"` };
    const sign = { secret: key.secretKey, operation: c.operation };
    // A real answer of ours, served verbatim by the bare server.
    const ts = new Date().toISOString();
    const real = await fetch(`${ref.server.url}${PATH}`, { method: 'POST', headers, body: body.replace('__TIMESTAMP__', ts).replace('__SIGNATURE__', createHmac('sha1', key.secretKey).update(c.operation + ts).digest('base64')) });
    const fixed = Buffer.from(await real.arrayBuffer());
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': fixed.length }).end(fixed));
    });
    const bareUrl = await listenOn(bare);
    const nsServer = createServer((_req, res) => res.writeHead(404).end());
    const nsUrl = await listenOn(nsServer);
    const result = c.operation === 'GetBookingsBatch' ? { BookingResponse: c.result } : c.result;
    soap.listen(nsServer, PATH, { ServiceAPI: { ServiceAPISoap: { [c.operation]: () => ({ [`${c.operation}Result`]: result }) } } }, renderWsdl(`${nsUrl}${PATH}`, ns));

    const spec = { path: PATH, headers, body, connections: 32, duration, sign };
    const ours = await load({ ...spec, url: ref.server.url });
    const bareFig = await load({ ...spec, url: bareUrl });
    const nodeSoap = await load({ ...spec, url: nsUrl });
    servers.push({ operation: c.operation, responseBytes: fixed.length, ours, bare: bareFig, nodeSoap });
    await new Promise((r) => bare.close(r));
    await new Promise((r) => nsServer.close(r));
  }

  const oursCallsPerSec = await callsPerSecond(() => client.getEventDetails7({ eventId }), duration);
  // node-soap gets its own key and one client per worker, so headers never race.
  const soapKey = createKey(ref.db, 'bench node-soap');
  const soapClients = await Promise.all(Array.from({ length: 8 }, () => soap.createClientAsync(`${ref.server.url}${PATH}?wsdl`)));
  let stamp = Date.now();
  const nodeSoapCallsPerSec = await callsPerSecond(async (worker) => {
    const c = soapClients[worker]!;
    const ts = new Date((stamp = Math.max(stamp + 1, Date.now()))).toISOString();
    c.clearSoapHeaders();
    c.addSoapHeader(`<AuthenticationHeader xmlns="${ns}"><Timestamp>${ts}</Timestamp><Operation>GetEventDetails7</Operation><Signature>${createHmac('sha1', soapKey.secretKey).update(`GetEventDetails7${ts}`).digest('base64')}</Signature><APIKey>${soapKey.apiKey}</APIKey></AuthenticationHeader>`);
    await c.GetEventDetails7Async({ eventId });
  }, duration);

  await ref.close();
  await rm(dir, { recursive: true, force: true });
  return { servers, client: { oursCallsPerSec, nodeSoapCallsPerSec } };
}
