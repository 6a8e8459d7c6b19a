// One server under test in a process of its own (started by children.ts with node --import tsx),
// so neither the load generator nor the bench's client shares its event loop. IPC only: it gets
// one ServerConfig and answers {type:'ready',…}; 'usage' gets its RSS, peak RSS and CPU time;
// 'stop' gets the final usage, then it exits. It also exits when the bench goes away (IPC
// disconnect), so it is never orphaned.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerConfig, ServerInfo, Usage } from './children.js';
import { peakRss, resetPeakRss } from './measure.js';

const PATH = '/API/1_0/SOAP/ServiceAPI.asmx';
const send = (m: object) => process.send!(m);
let close: () => Promise<void> = () => Promise.resolve();

function usage(reset: boolean): Usage {
  const cpu = process.cpuUsage();
  const u = {
    rss: process.memoryUsage.rss(),
    peakRss: peakRss(),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  // Restarts VmHWM, so the next peak is that of the load alone, not of start-up or warm-up.
  if (reset) resetPeakRss();
  return u;
}

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const nsOf = (url: string) => `https://${new URL(url).host}/API/1_0/SOAP/`;

// Each kind imports only what it serves, so the bare server's RSS holds no SOAP library.
async function start(c: ServerConfig): Promise<ServerInfo> {
  const { createServer } = await import('node:http');
  if (c.kind === 'ours') {
    const { startReferenceService } = await import('../reference/serve.js');
    const { createKey } = await import('../reference/keys.js');
    const ref = await startReferenceService({
      database: c.database,
      host: '127.0.0.1',
      port: 0,
      // No log option: its lines go to stdout through pino, as `npm start` writes them.
      ...(c.workers === undefined ? {} : { workers: c.workers }),
      ...(c.replay === undefined ? {} : { replay: c.replay }),
      ...(c.readCache === undefined ? {} : { readCache: c.readCache }),
      ...(c.smallReads === undefined ? {} : { smallReads: c.smallReads }),
    });
    close = () => ref.close();
    // A fresh key per server process: timestamps of an earlier run never meet this one's.
    const keys = [];
    for (let i = 0; i < c.keys; i++)
      keys.push((i === 0 && ref.demoKey) || (await ref.database.run(createKey(`bench ${i}`))));
    const [busiest] = await ref.database.query<{ id: number }>(
      'SELECT event_id AS id FROM booking GROUP BY event_id ORDER BY count(*) DESC, event_id LIMIT 1',
    );
    const eventId = busiest!.id;
    const [booking] = await ref.database.query<{ id: number }>(
      'SELECT id FROM booking WHERE event_id = ? ORDER BY id LIMIT 1',
      eventId,
    );
    const [contact] = await ref.database.query<{ email: string }>(
      'SELECT email FROM contact ORDER BY id LIMIT 1',
    );
    const workerTids = (ref.pool?.threads ?? []).flatMap((t) =>
      t.tid === undefined ? [] : [t.tid],
    );
    return {
      url: ref.server.url,
      ns: nsOf(ref.server.url),
      keys,
      eventId,
      bookingId: booking!.id,
      contactEmail: contact!.email,
      workers: ref.workers,
      workerTids,
    };
  }
  if (c.kind === 'stub') return startStub(c);
  if (c.kind === 'proxy') {
    const { startProxy } = await import('../proxy/proxy.js');
    const { GENERATED_TABLES } = await import('../proxy/generated-tables.js');
    const proxy = await startProxy({ target: c.target, tables: GENERATED_TABLES });
    close = async () => void (await proxy.close());
    return { url: proxy.url, ns: nsOf(proxy.url), keys: [], eventId: 0 };
  }
  if (c.kind === 'bare') {
    // The ceiling: a fixed answer of the same bytes, no parsing, no work.
    const fixed = Buffer.from(c.body);
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(200, {
            'content-type': 'text/xml; charset=utf-8',
            'content-length': fixed.length,
          })
          .end(fixed),
      );
    });
    const url = await listenOn(server);
    close = () => new Promise((r) => server.close(() => r()));
    return { url, ns: nsOf(url), keys: [], eventId: 0 };
  }
  const soap = await import('soap');
  const { renderWsdl } = await import('@evgen/event-management/wsdl');
  const server = createServer((_req, res) => res.writeHead(404).end());
  const url = await listenOn(server);
  const answer = { [`${c.operation}Result`]: c.result };
  soap.listen(
    server,
    PATH,
    { ServiceAPI: { ServiceAPISoap: { [c.operation]: () => answer } } },
    renderWsdl(`${url}${PATH}`, nsOf(url)),
  );
  close = () => new Promise((r) => server.close(() => r()));
  return { url, ns: nsOf(url), keys: [], eventId: 0 };
}

/**
 * The generated server stub alone: every operation answers the same fixed object (what node-soap
 * serves), with full authentication (signature, window, an in-memory replay store) and no
 * database, on the request loop as a user of the package would run it.
 */
async function startStub(c: Extract<ServerConfig, { kind: 'stub' }>): Promise<ServerInfo> {
  const { randomBytes } = await import('node:crypto');
  const { listen } = await import('@evgen/runtime');
  const { createServiceHandler } = await import('@evgen/runtime/internal');
  const { operations } = await import('@evgen/event-management/operations');
  const { authScheme } = await import('@evgen/event-management/auth');
  const { SERVICE, WIRE } = await import('@evgen/event-management/service');
  const { renderWsdl } = await import('@evgen/event-management/wsdl');
  const keys = Array.from({ length: c.keys }, (_, i) => ({
    apiKey: `ak_stub${i}`,
    secretKey: randomBytes(24).toString('base64url'),
  }));
  const secrets = new Map(keys.map((k) => [k.apiKey, { secret: k.secretKey, name: k.apiKey }]));
  // What createEventService builds, with every operation answering the fixed result (the load
  // calls only c.operation): the runtime engine takes any handler object.
  const handlers = Object.fromEntries(
    Object.values(operations).map((op) => [op.method, () => c.result]),
  );
  const server = await listen(
    createServiceHandler({
      operations,
      handlers,
      auth: authScheme,
      wire: WIRE,
      clockSkewSeconds: SERVICE.clockSkewSeconds,
      wsdl: renderWsdl,
      lookupKey: (k) => Promise.resolve(secrets.get(k)),
    }),
    { host: '127.0.0.1', port: 0 },
  );
  close = () => server.close();
  return { url: server.url, ns: nsOf(server.url), keys, eventId: 0 };
}

process.on('disconnect', () => process.exit(0));
process.on('message', (m: ServerConfig | { type: 'usage'; reset: boolean } | { type: 'stop' }) => {
  if (m.type === 'start') {
    start(m).then(
      (info) => send({ type: 'ready', ...info }),
      (e: unknown) => {
        process.stderr.write(
          `server-child: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
        );
        process.exit(1);
      },
    );
  } else if (m.type === 'usage') {
    send({ type: 'usage', ...usage(m.reset) });
  } else if (m.type === 'stop') {
    // Usage first: closing drains connections, which is not part of serving.
    const u = usage(false);
    void close().finally(() =>
      process.send!({ type: 'usage', ...u }, undefined, undefined, () => process.exit(0)),
    );
  }
});
