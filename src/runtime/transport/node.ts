// Puts a framework-neutral ServiceHandler on node:http: bounded body reading (413 without reading
// the rest), header and request time-outs, graceful close that lets requests in flight finish.
// node:http is fetched when listen() runs, not imported, so the @evgen/runtime barrel has no static
// node: import and a browser bundle of the client needs no configuration.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_BODY_BYTES, type ServiceHandler } from './server.js';

export interface NodeListenerOptions {
  readonly maxBodyBytes?: number;
  /**
   * Time an answer may take to be written out once ready; past it the connection is closed, so a
   * client that does not read cannot keep the answer in memory. Default 30 s.
   */
  readonly writeTimeoutMs?: number;
}

export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;

function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    // A Buffer is a Uint8Array: no copy (a small body arrives as one chunk).
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
    // A client that goes away mid-body must not leave this promise (and its chunks) pending.
    req.once('close', () => reject(new Error('request closed before its body ended')));
  });
}

const EMPTY = new Uint8Array(0);

/**
 * Names of header fields sent more than once. Node joins most repeats with ", " and keeps only
 * the first of others (Content-Type among them), so they are counted from the raw header list.
 */
function repeatedHeaders(req: IncomingMessage): string[] | undefined {
  const raw = req.rawHeaders;
  if (raw.length <= 2) return undefined;
  let out: string[] | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (seen.has(name)) (out ??= []).push(name);
    else seen.add(name);
  }
  return out;
}

export function toNodeListener(handler: ServiceHandler, options: NodeListenerOptions = {}) {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  // The answer each connection is writing: a pipelined request waits for it, so a connection
  // holds at most one answer in memory however many requests it sends ahead.
  const writing = new WeakMap<object, Promise<void>>();
  return (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    const before = writing.get(socket);
    const written = new Promise<void>((done) => res.once('close', done));
    writing.set(socket, written);
    void (async () => {
      if (before) await before;
      if (socket.destroyed) return;
      const declared = Number(req.headers['content-length'] ?? '0');
      const body = declared > limit ? undefined : await readBody(req, limit);
      const headers: Record<string, string | undefined> = {};
      const raw = req.headers;
      for (const k in raw) {
        const v = raw[k];
        headers[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      // A body past the limit is not read further: the handler answers it (its binding's fault,
      // 413) and the connection closes, as the rest of the body is still on its way.
      const out = await handler({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers,
        body: body ?? EMPTY,
        ...(body ? {} : { bodyLimitExceeded: limit }),
        duplicateHeaders: repeatedHeaders(req),
      });
      res.writeHead(out.status, {
        ...out.headers,
        'content-length': Buffer.byteLength(out.body),
        ...(body ? {} : { connection: 'close' }),
      });
      const timer = setTimeout(() => socket.destroy(), writeTimeoutMs);
      res.once('close', () => clearTimeout(timer));
      res.end(out.body);
    })().catch(() => {
      // The handler turns every error into a fault; this is a broken socket or a bug: never crash.
      if (!res.headersSent) res.writeHead(500, { 'content-length': 0 });
      res.end();
    });
  };
}

export interface ListenOptions extends NodeListenerOptions {
  readonly host?: string;
  readonly port?: number;
  /** Time to receive the request headers (slowloris guard). Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Time to receive the whole request. Default 30 s. */
  readonly requestTimeoutMs?: number;
  readonly keepAliveTimeoutMs?: number;
  /** How often Node looks for connections past those time-outs. Default 1 s (Node's own is 30 s). */
  readonly connectionsCheckingIntervalMs?: number;
}

export interface RunningServer {
  readonly server: Server;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish, then closes idle connections. */
  close(): Promise<void>;
}

export function listen(
  handler: ServiceHandler,
  options: ListenOptions = {},
): Promise<RunningServer> {
  const server = process.getBuiltinModule('node:http').createServer({
    headersTimeout: options.headersTimeoutMs ?? 10_000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
    connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? 1_000,
  });
  const drain = drainOnClose(server);
  server.on('request', toNodeListener(handler, options));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      const { address, port } = server.address() as AddressInfo;
      const host = address.includes(':') ? `[${address}]` : address;
      resolve({ server, url: `http://${host}:${port}`, close: drain });
    });
  });
}

/**
 * Graceful close. server.close() alone stops accepting but a keep-alive connection whose request
 * was in flight stays open until its idle time-out; so once closing, new responses say
 * `Connection: close`, and connections are closed as soon as they fall idle. Nothing is tracked per
 * request before that (a listener per request cost measurable time under load).
 */
function drainOnClose(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((done) => {
      server.on('request', (_req: IncomingMessage, res: ServerResponse) =>
        res.setHeader('connection', 'close'),
      );
      const sweep = setInterval(() => server.closeIdleConnections(), 20);
      server.close(() => {
        clearInterval(sweep);
        done();
      });
      server.closeIdleConnections();
    });
}
