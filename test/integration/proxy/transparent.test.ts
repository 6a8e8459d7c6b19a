// The proxy changes nothing: the same request sent to the target directly (with the Host the
// proxy forwards) and through the proxy gets the same status, status text, header fields (but the
// connection's own) and body bytes, on every binding, for the WSDL, a help page, a refusal and a
// path outside the endpoint. Many connections at once are all answered; a target that is down
// gives 502 with a text saying so, and the report counts it; a body longer than the proxy checks
// is forwarded whole, unchecked; a client that goes away mid-body costs nothing.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, namespaceFor } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { GENERATED_TABLES } from '../../../src/proxy/generated-tables.js';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import { startReference, type Reference } from '../reference/harness.js';
import { send, watch, type RawExchange, type Watched } from './harness.js';
import { CassetteWriter } from '../../../src/proxy/cassette.js';
import { CHECKS_BEHIND } from '../../../src/proxy/proxy.js';
import { rawConnection } from '../../support/sockets.js';

let ref: Reference;
let w: Watched;
let last = Date.now();
const stamp = () => new Date((last = Math.max(last + 1, Date.now()))).toISOString();

beforeAll(async () => {
  ref = await startReference({ events: 3, bookings: 30 }, { workers: 0 });
  const k = ref.svc.demoKey!;
  w = await watch(ref.svc.server.url, {
    level: 'evgen',
    secrets: (key) => Promise.resolve(key === k.apiKey ? k.secretKey : undefined),
    maxCheckBytes: 64 * 1024,
  });
});
afterAll(async () => {
  await w.proxy.close();
  await ref.stop();
});

/** Header pairs that are the message's, not the connection's (Date: when it was made). */
const message = (r: RawExchange) => {
  const out: string[] = [];
  for (let i = 0; i < r.rawHeaders.length; i += 2)
    if (!/^(connection|keep-alive|date|transfer-encoding)$/i.test(r.rawHeaders[i]!))
      out.push(`${r.rawHeaders[i]}: ${r.rawHeaders[i + 1]}`);
  return out;
};

interface Call {
  readonly name: string;
  readonly make: (
    base: string,
  ) => Promise<{ url: string; method: string; headers: Record<string, string>; body?: string }>;
}

const call = (binding: string, operation: string, params: object): Call => ({
  name: `${operation} over ${binding}`,
  make: async (base) => {
    const k = ref.svc.demoKey!;
    const r = await buildRequest(
      {
        endpoint: `${base}${WIRE.endpointPath}`,
        ns: namespaceFor(w.proxy.url, SERVICE.namespace),
        apiKey: k.apiKey,
        secretKey: k.secretKey,
        auth: authScheme,
        timestamp: stamp(),
      },
      GENERATED_TABLES.operations[operation]!,
      params,
      WIRE.bindings.find((b) => b.id === binding)!,
    );
    return {
      url: r.url,
      method: r.init.method!,
      headers: r.init.headers as Record<string, string>,
      ...(typeof r.init.body === 'string' ? { body: r.init.body } : {}),
    };
  },
});
const get = (name: string, path: string, headers: Record<string, string> = {}): Call => ({
  name,
  make: (base) => Promise.resolve({ url: `${base}${path}`, method: 'GET', headers }),
});

const CALLS: Call[] = [
  ...WIRE.bindings.map((b) => call(b.id, 'GetBookingDetails', { bookingId: 1 })),
  ...WIRE.bindings.map((b) => call(b.id, 'GetSubClientCompanyList', {})),
  call('soap12', 'GetBookingDetails', { bookingId: 999_999 }), // a NotFound fault
  get('the WSDL', `${WIRE.endpointPath}?wsdl`),
  get('a help page', `${WIRE.endpointPath}?op=GetBookingDetails`, { accept: 'text/html' }),
  get('a refusal without credentials', `${WIRE.endpointPath}/GetBookingDetails?bookingId=1`),
  get('a path outside the endpoint', '/health'),
];

describe("the target's answer, byte for byte", () => {
  it.each(CALLS)('$name', async ({ make }) => {
    const host = new URL(w.proxy.url).host;
    const direct = await make(ref.svc.server.url);
    const viaProxy = await make(w.proxy.url);
    // The same request id both ways: the service answers with the caller's (or a new one).
    const id = { 'x-request-id': `transparent-${randomUUID()}` };
    const a = await send(direct.url, {
      method: direct.method,
      headers: { ...direct.headers, ...id, host },
      ...(direct.body !== undefined ? { body: direct.body } : {}),
    });
    const b = await send(viaProxy.url, {
      method: viaProxy.method,
      headers: { ...viaProxy.headers, ...id },
      ...(viaProxy.body !== undefined ? { body: viaProxy.body } : {}),
    });
    expect([b.status, b.statusMessage]).toEqual([a.status, a.statusMessage]);
    expect(message(b)).toEqual(message(a));
    expect(Buffer.compare(b.body, a.body), b.body.toString()).toBe(0);
  });

  it('reports nothing about those exchanges but the request without credentials', async () => {
    await w.proxy.idle();
    expect(w.findings).toEqual([
      expect.objectContaining({
        direction: 'request',
        binding: 'httpGet',
        check: 'credential headers',
      }),
    ]);
  });

  it('answers 32 connections at once, each its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 32 }, async () => {
        const r = await call('soap11', 'GetBookingDetails', { bookingId: 1 }).make(w.proxy.url);
        return send(r.url, {
          method: r.method,
          headers: { ...r.headers, connection: 'close' },
          body: r.body!,
        });
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.body.toString())).size).toBe(1);
  });
});

describe('bounded', () => {
  it('forwards a body longer than it checks whole, and says it was not checked', async () => {
    const r = await call('soap11', 'GetBookingDetails', { bookingId: 1 }).make(w.proxy.url);
    // 512 KiB: past the proxy's 64 KiB bound here, within the service's own limit.
    const padded = r.body!.replace('<bookingId>', `<!--${'x'.repeat(512 * 1024)}--><bookingId>`);
    const before = w.proxy.report().unchecked['request body over the check bound'] ?? 0;
    const a = await send(r.url, { method: 'POST', headers: r.headers, body: padded });
    expect(a.status).toBe(200);
    await w.proxy.idle();
    expect(w.proxy.report().unchecked['request body over the check bound']).toBe(before + 1);
  });

  it("streams a body over the service's limit to the target whole", async () => {
    let received = 0;
    const target = createServer((req, res) => {
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => res.writeHead(413, { 'content-type': 'text/plain' }).end('too large\n'));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    const big = await watch(`http://127.0.0.1:${port}`, { maxCheckBytes: 64 * 1024 });
    try {
      const body = Buffer.alloc(3 * 1024 * 1024, 'x');
      const a = await send(`${big.proxy.url}${WIRE.endpointPath}`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body,
      });
      expect([a.status, a.body.toString()]).toEqual([413, 'too large\n']);
      expect(received).toBe(body.length);
      const report = await big.proxy.close();
      expect(report.unchecked['request body over the check bound']).toBe(1);
    } finally {
      target.close();
    }
  });

  it('forgets a client that goes away in the middle of its body', async () => {
    const { port } = new URL(w.proxy.url);
    const before = w.proxy.report().exchanges;
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST ${WIRE.endpointPath} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 100000\r\n\r\n<soap:Envelope`,
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
    });
    await w.proxy.idle();
    const r = w.proxy.report();
    expect(r.exchanges).toBe(before);
    expect(r.unchecked['the client went away before its answer was out']).toBeGreaterThanOrEqual(1);
  });
});

describe('bounded: what a client can make the proxy hold', () => {
  // The sharing itself is the runtime's (test/integration/runtime/transport/connections.test.ts):
  // here, that the proxy's listener applies it.
  const head = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
  const within = <T>(p: Promise<T>, late: T) =>
    Promise.race([p, new Promise<T>((r) => setTimeout(() => r(late), 5_000))]);

  it('refuses a client past --max-connections-per-client with 503', async () => {
    const small = await watch(ref.svc.server.url, { maxConnectionsPerClient: 2 });
    const sockets: Socket[] = [];
    try {
      await Promise.all([1, 2].map(() => rawConnection(small.proxy.url, sockets)));
      const extra = await rawConnection(small.proxy.url, sockets);
      extra.socket.write(head(`${WIRE.endpointPath}?wsdl`));
      const refused = await within(extra.closed, { data: 'still open', ms: 0 });
      expect(refused.data).toMatch(/^HTTP\/1\.1 503 /);
    } finally {
      for (const s of sockets) s.destroy();
      await small.proxy.close();
    }
  });

  it('at --max-connections closes the connection idle the longest to let a new one in', async () => {
    const small = await watch(ref.svc.server.url, { maxConnections: 2 });
    const sockets: Socket[] = [];
    try {
      const idle = await rawConnection(small.proxy.url, sockets);
      await rawConnection(small.proxy.url, sockets);
      const a = await send(`${small.proxy.url}${WIRE.endpointPath}?wsdl`);
      expect(a.status).toBe(200);
      const shed = await within(idle.closed, { data: 'still open', ms: 0 });
      expect(shed.data).toBe('');
    } finally {
      for (const s of sockets) s.destroy();
      await small.proxy.close();
    }
  });

  it('lets an exchange go unchecked, not held, while the checks before it are still running', async () => {
    let release: () => void = () => undefined;
    const stuck = new Promise<undefined>((r) => (release = () => r(undefined)));
    const slow = await watch(ref.svc.server.url, {
      maxPendingChecks: 1,
      secrets: () => stuck, // the first check waits here until released
    });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await call('soap11', 'GetBookingDetails', { bookingId: 1 }).make(slow.proxy.url);
        const a = await send(r.url, { method: 'POST', headers: r.headers, body: r.body! });
        expect(a.status).toBe(200);
      }
      await new Promise((r) => setTimeout(r, 50));
      expect(slow.proxy.report().unchecked[CHECKS_BEHIND]).toBe(2);
      release();
      await slow.proxy.idle();
      expect(slow.proxy.report().exchanges).toBe(3);
    } finally {
      release();
      await slow.proxy.close();
    }
  });

  it('counts exchanges as not recorded, not held, while the cassette is behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evgen-cassette-'));
    try {
      const file = join(dir, 'c.jsonl');
      const writer = new CassetteWriter(file, 1_000);
      await writer.ready();
      const body = 'x'.repeat(600);
      const exchange = {
        time: 't',
        durationMs: 1,
        binding: 'soap11',
        operation: 'Op',
        request: { method: 'POST', url: '/', headers: [], body, bodyBytes: body.length },
        response: { status: 200, statusMessage: 'OK', headers: [], body, bodyBytes: body.length },
      };
      for (let i = 0; i < 10; i++) writer.record(exchange); // in one turn: nothing reaches the disk
      expect([writer.written, writer.dropped]).toEqual([1, 9]);
      await writer.close();
      const lines = (await readFile(file, 'utf8')).trim().split('\n');
      expect(lines.length).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a target that does not answer in time', () => {
  it('gives the client 504 with a text saying so', async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => {
      sockets.add(socket.on('error', () => undefined)); // reads, never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const slow = await watch(`http://127.0.0.1:${port}`, { targetTimeoutMs: 200 });
    try {
      const a = await send(`${slow.proxy.url}${WIRE.endpointPath}?wsdl`);
      expect(a.status).toBe(504);
      expect(a.body.toString()).toMatch(/no answer within 0\.2 s/);
    } finally {
      await slow.proxy.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe('header fields of its own', () => {
  it('adds none: a target that sends no Date gets none added', async () => {
    const target = createServer((_req, res) => {
      res.sendDate = false;
      res
        .writeHead(200, 'Fine', {
          'content-type': 'text/plain',
          'x-kept': 'a',
          'content-length': '2',
        })
        .end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    const t = await watch(`http://127.0.0.1:${port}`);
    try {
      const a = await send(`${t.proxy.url}/other`);
      expect([a.status, a.statusMessage, a.body.toString()]).toEqual([200, 'Fine', 'ok']);
      expect(message(a)).toEqual(['content-type: text/plain', 'x-kept: a', 'content-length: 2']);
      expect(a.rawHeaders.map((h) => h.toLowerCase())).not.toContain('date');
    } finally {
      await t.proxy.close();
      target.close();
    }
  });
});

describe('a compressed answer', () => {
  it('is forwarded as sent and checked decompressed', async () => {
    // The reference's WSDL without its first operation, gzip-compressed.
    const wsdl = (await send(`${ref.svc.server.url}${WIRE.endpointPath}?wsdl`)).body.toString();
    const first = /<wsdl:operation name="(\w+)"/.exec(wsdl)![1]!;
    const cut = wsdl.split(`name="${first}"`).join('name="Removed"');
    const zipped = gzipSync(cut);
    const target = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': WIRE.wsdlContentType, 'content-encoding': 'gzip' })
        .end(zipped),
    );
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    const z = await watch(`http://127.0.0.1:${port}`, { level: 'evgen' });
    try {
      const a = await send(`${z.proxy.url}${WIRE.endpointPath}?wsdl`, {
        headers: { host: new URL(ref.svc.server.url).host },
      });
      expect(Buffer.compare(a.body, zipped)).toBe(0);
      await z.proxy.idle();
      expect(z.findings.map((f) => f.message)).toContain(`the WSDL has no operation ${first}`);
    } finally {
      await z.proxy.close();
      target.close();
    }
  });
});

describe('a target that is down', () => {
  it('gives the client 502 with a text saying so, and the report says so too', async () => {
    // A port that was just free: nothing listens there.
    const free = createNetServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const { port } = free.address() as AddressInfo;
    await new Promise((resolve) => free.close(resolve));
    const target = `http://127.0.0.1:${port}`;
    const down = await watch(target);
    try {
      const a = await send(`${down.proxy.url}${WIRE.endpointPath}?wsdl`);
      expect(a.status).toBe(502);
      expect(a.type).toBe('text/plain; charset=utf-8');
      expect(a.body.toString()).toMatch(
        new RegExp(`^evgen proxy: no answer from the target ${target}: .*ECONNREFUSED`),
      );
    } finally {
      const report = await down.proxy.close();
      expect(report.targetFailures).toBe(1);
      expect(down.findings).toEqual([
        expect.objectContaining({
          direction: 'response',
          check: 'target answers',
          found: expect.stringMatching(/ECONNREFUSED/) as string,
        }),
      ]);
    }
  });
});
