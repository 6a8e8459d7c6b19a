// The admin listener: /metrics, and the test controls when they are on (controls-route.ts). It
// listens on its own port (--admin-port), on the loopback address unless --admin-host says
// otherwise, so that nothing of it is ever reachable through the public port. Bodies are small
// (JSON of a control) and bounded; anything else is 404.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { DEFAULT_ADMIN_HOST } from './options.js';

/** The largest request body the admin listener reads. */
export const MAX_ADMIN_BODY = 16 * 1024;

export interface AdminRequest {
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}
export interface AdminAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}
/** Answers the requests under its prefix; undefined for a path it does not know. */
export type AdminRoute = (req: AdminRequest) => Promise<AdminAnswer | undefined>;

export interface AdminOptions {
  readonly host?: string;
  readonly port: number;
  readonly registry: Registry;
  /** The test controls' routes (absent unless --test-controls). */
  readonly controls?: AdminRoute;
}

export interface AdminListener {
  readonly url: string;
  close(): Promise<void>;
}

const json = (res: ServerResponse, a: AdminAnswer) => {
  res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
  res.end(`${JSON.stringify(a.body)}\n`);
};

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ADMIN_BODY) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function answer(o: AdminOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin.invalid');
  if (req.method === 'GET' && url.pathname === '/metrics') {
    const text = await o.registry.metrics();
    res.writeHead(200, { 'content-type': o.registry.contentType });
    res.end(text);
    return;
  }
  const body = await readBody(req);
  if (body === undefined)
    return json(res, { status: 413, body: { error: `body over ${MAX_ADMIN_BODY} bytes` } });
  const routed = await o.controls?.({
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body,
  });
  json(res, routed ?? { status: 404, body: { error: `nothing at ${url.pathname.slice(0, 64)}` } });
}

export async function startAdmin(o: AdminOptions): Promise<AdminListener> {
  const server: Server = createServer((req, res) => {
    answer(o, req, res).catch((e: unknown) =>
      json(res, { status: 500, body: { error: e instanceof Error ? e.message : String(e) } }),
    );
  });
  server.requestTimeout = 10_000;
  server.maxConnections = 64;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port, o.host ?? DEFAULT_ADMIN_HOST, () => ok());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
