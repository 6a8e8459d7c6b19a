// Puts a framework-neutral ServiceHandler on node:http: bounded body reading (413, the rest of the
// body dropped up to a bound), slow bodies cut (408), connections shared per client
// (node-connections.ts), header and request time-outs, graceful close that lets requests in flight
// finish.
// node:http is fetched when listen() runs, not imported, so the @evgen/runtime barrel has no static
// node: import and a browser bundle of the client needs no configuration.
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_BODY_BYTES, type ServiceHandler, type ServiceResponse } from './server.js';
import {
  UNTRACKED,
  shareConnections,
  type ConnectionLimits,
  type ConnectionTracker,
} from './node-connections.js';
import { onTurnEnd } from './turn.js';

export interface NodeListenerOptions {
  readonly maxBodyBytes?: number;
  /**
   * Time an answer may take to be written out once ready; past it the connection is closed, so a
   * client that does not read cannot keep the answer in memory. Default 30 s.
   */
  readonly writeTimeoutMs?: number;
  /**
   * Called with an answer once all of it has been handed to the operating system (not when the
   * connection closed first): the owner of its body may reuse or free it from then on. An error
   * it throws is ignored.
   */
  readonly onWritten?: (answer: ServiceResponse) => void;
  /**
   * A request body must come in within this long of its head, plus a second for each
   * `minBodyBytesPerSecond` bytes received, and never stop for longer than this between two reads;
   * past either it is answered 408 and its connection closed. A client sending a byte a second
   * holds its connection this long, not the whole request time-out. Default 10 s.
   */
  readonly bodyTimeoutMs?: number;
  /** See `bodyTimeoutMs`. Default 1,024 bytes a second. */
  readonly minBodyBytesPerSecond?: number;
}

export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 1_024;

const EMPTY = new Uint8Array(0);
const ignore = () => undefined;

/** A body being read, for the deadline sweep. */
interface Reading {
  readonly req: IncomingMessage;
  readonly started: number;
  lastRead: number;
  bytes: number;
  /** Answers 408 (413 once past the limit) and closes the connection. */
  readonly cut: () => void;
}

/**
 * The bodies being read and their deadlines (see `bodyTimeoutMs`): one sweep a fraction of the
 * time-out apart, not a timer per request (a body of one chunk, the common case, never meets it).
 */
function bodyDeadlines(timeoutMs: number, minBytesPerSecond: number) {
  const reading = new Set<Reading>();
  let sweep: ReturnType<typeof setInterval> | undefined;
  const check = () => {
    const now = performance.now();
    for (const r of reading) {
      // A client gone mid-body: nothing to answer.
      if (r.req.destroyed) {
        reading.delete(r);
        continue;
      }
      const deadline = Math.min(
        r.started + timeoutMs + (r.bytes * 1000) / minBytesPerSecond,
        r.lastRead + timeoutMs,
      );
      if (now > deadline) {
        reading.delete(r);
        r.cut();
      }
    }
    if (reading.size === 0) {
      clearInterval(sweep);
      sweep = undefined;
    }
  };
  return {
    add(r: Reading) {
      reading.add(r);
      sweep ??= setInterval(check, Math.max(10, Math.min(250, timeoutMs / 4))).unref();
    },
    remove: (r: Reading) => reading.delete(r),
  };
}
type Deadlines = ReturnType<typeof bodyDeadlines>;

/**
 * How much of a body past the limit is read and dropped before the 413 goes out, as a multiple of
 * the limit. A client that writes its whole body before it reads (fetch, most SOAP stacks) would
 * otherwise have the connection reset under it by the close, losing the answer; past this the
 * answer goes at once, so no client makes us read without end. Nothing dropped is kept.
 */
const DRAIN_FACTOR = 8;

/** Text answers up to this many code units are written as text; longer ones as bytes (respond). */
const SHORT_TEXT = 4096;

/**
 * Calls `done` with the body, or with undefined once it passes `limit`: the rest is read and
 * dropped until it ends, or not read once past DRAIN_FACTOR times the limit. Callbacks, not a
 * promise: this runs once per request, and a client that goes away mid-body leaves nothing
 * pending (its listeners go with the request). A body slower than the deadlines allow is answered
 * 408 here and `done` is never called; one past the limit that drains too slowly is answered
 * (413) at once, the rest left unread.
 */
function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  deadlines: Deadlines,
  done: (body: Uint8Array | undefined) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const now = performance.now();
  const reading: Reading = { req, started: now, lastRead: now, bytes: 0, cut: () => cut() };
  const stop = () => (req.off('data', onData).off('end', onEnd), deadlines.remove(reading));
  const finish = (body: Uint8Array | undefined) => (stop(), done(body));
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    // Bytes past the limit earn no more time: the drain ends within the deadline of a whole body.
    reading.bytes = Math.min(size, limit);
    reading.lastRead = performance.now();
    if (size <= limit) return void chunks.push(chunk);
    chunks.length = 0;
    if (size > limit * DRAIN_FACTOR) finish((req.pause(), undefined));
  };
  // A Buffer is a Uint8Array: no copy (a small body arrives as one chunk).
  const onEnd = () =>
    finish(
      size > limit
        ? undefined
        : chunks.length === 0
          ? EMPTY
          : chunks.length === 1
            ? chunks[0]!
            : Buffer.concat(chunks),
    );
  const cut = () => {
    if (size > limit) return finish((req.pause(), undefined));
    stop();
    const socket = req.socket;
    if (res.headersSent || socket.destroyed) return void socket.destroy();
    res.once('finish', () => socket.destroy());
    res.writeHead(408, { connection: 'close', 'content-length': 0 }).end();
  };
  // Without a listener an 'error' (a client gone mid-body) would be thrown; it only ends the request.
  req.on('data', onData).on('end', onEnd).on('error', ignore);
  deadlines.add(reading);
}

/**
 * Names of header fields sent more than once. Node joins most repeats with ", " and keeps only
 * the first of others (Content-Type among them), so they are counted from the raw header list;
 * when it holds as many fields as `headers` has names, there are none (the common case, no work).
 */
function repeatedHeaders(
  raw: readonly string[],
  headers: IncomingHttpHeaders,
): string[] | undefined {
  let names = 0;
  for (const _ in headers) names++;
  if (names * 2 === raw.length) return undefined;
  let out: string[] | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (seen.has(name)) (out ??= []).push(name);
    else seen.add(name);
  }
  return out;
}

/** Node gives every field as one string but Set-Cookie, which a request has no use for. */
function singleValued(
  h: IncomingHttpHeaders,
): h is Readonly<Record<string, string | undefined>> & IncomingHttpHeaders {
  return h['set-cookie'] === undefined;
}

function requestHeaders(h: IncomingHttpHeaders): Readonly<Record<string, string | undefined>> {
  if (singleValued(h)) return h;
  const out: Record<string, string | undefined> = {};
  for (const k in h) {
    const v = h[k];
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * node:http's request listener for `handler`. `tracker`: the connection limits of `listen`, told
 * when each request begins and when its answer is out.
 */
export function toNodeListener(
  handler: ServiceHandler,
  options: NodeListenerOptions = {},
  tracker: ConnectionTracker = UNTRACKED,
) {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  const { onWritten } = options;
  const written = (out: ServiceResponse) => {
    try {
      onWritten?.(out);
    } catch {
      // the owner's business; the answer is out either way
    }
  };
  // The answer each connection is working on until it is out: a pipelined request waits for it,
  // so a connection holds at most one answer in memory however many requests it sends ahead.
  const inFlight = new WeakMap<object, ServerResponse>();
  const done = (socket: object, res: ServerResponse) => {
    if (inFlight.get(socket) === res) inFlight.delete(socket);
    tracker.end(socket);
  };
  const deadlines = bodyDeadlines(
    options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  );

  const respond = (
    req: IncomingMessage,
    res: ServerResponse,
    out: ServiceResponse,
    whole: boolean,
  ) => {
    // Short text goes to the socket as text: node:http joins it to the header line and the socket
    // encodes both in one write, where a Buffer made here cost an allocation and a copy more.
    // Longer text is encoded here, once: joined to the header line, all of it would be copied
    // once more. Content-Length counts UTF-8 bytes, not code units.
    const body =
      typeof out.body === 'string' && out.body.length > SHORT_TEXT
        ? Buffer.from(out.body)
        : out.body;
    const headers: Record<string, string | number> = { ...out.headers };
    headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (!whole) headers.connection = 'close';
    res.writeHead(out.status, headers).end(body);
    const socket = req.socket;
    // Most answers reach the socket at once; only one still being written needs the time-out.
    if (res.writableFinished) return (written(out), done(socket, res));
    const timer = setTimeout(() => socket.destroy(), writeTimeoutMs);
    // A write cut short by a closing socket also ends in 'finish': only a live socket got it all.
    if (onWritten) res.once('finish', () => socket.destroyed || written(out));
    res.once('close', () => (clearTimeout(timer), done(socket, res)));
  };
  const failed = (req: IncomingMessage, res: ServerResponse) => {
    // The handler turns every error into a fault; this is a broken socket or a bug: never crash.
    try {
      if (!res.headersSent) res.writeHead(500, { 'content-length': 0 });
      res.end();
    } catch {
      req.socket.destroy();
    }
    done(req.socket, res);
  };

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.socket.destroyed) return done(req.socket, res);
    const declared = Number(req.headers['content-length'] ?? '0');
    const call = (body: Uint8Array | undefined) => {
      // A body past the limit is not kept: the handler answers it (its binding's fault, 413) and
      // the connection closes, as the rest of a body past the drain may still be on its way.
      handler({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: requestHeaders(req.headers),
        body: body ?? EMPTY,
        ...(body ? {} : { bodyLimitExceeded: limit }),
        duplicateHeaders: repeatedHeaders(req.rawHeaders, req.headers),
      }).then(
        // Written with the turn's other answers, once its I/O callbacks are done (onTurnEnd):
        // written as each handler finished, each woke the client's reading thread; back to back,
        // the client finds them as it goes. An answer waits at most for the rest of its turn.
        (out) =>
          onTurnEnd(() => {
            try {
              respond(req, res, out, body !== undefined);
            } catch {
              failed(req, res);
            }
          }),
        () => failed(req, res),
      );
    };
    if (declared > limit * DRAIN_FACTOR) call(undefined);
    else readBody(req, res, limit, deadlines, call);
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!tracker.begin(req, res)) return;
    const before = inFlight.get(req.socket);
    inFlight.set(req.socket, res);
    if (before && !before.destroyed) before.once('close', () => serve(req, res));
    else serve(req, res);
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
  /**
   * Connections open at once. At the limit the connection idle the longest (between requests, or
   * not yet past its request head) is closed to make room; when none is idle a new one is answered
   * 503 and closed (the server's 'drop' event tells, with a `DroppedConnection`). Default 512:
   * half the usual limit of 1,024 open files, so a flood of connections leaves the process
   * descriptors for its own files and sockets (the reference service holds about 90 with four
   * worker threads, 14 more for each further one). Raise it together with the limit (`ulimit -n`).
   */
  readonly maxConnections?: number;
  /**
   * Connections one client may hold at once: an IPv4 address, or an IPv6 /64. Past it a new one
   * is answered 503 and closed. Default 64. Clients behind one proxy or NAT share it.
   */
  readonly maxConnectionsPerClient?: number;
  /**
   * A path answered even when `maxConnections` are open, on up to `reservedConnections` more (a
   * load balancer's health check: the node is full, not dead). A connection on the reserve gets
   * one request, which must come within 2 s and be for this path (anything else: 503).
   */
  readonly reservedPath?: string;
  /** Default 16 when `reservedPath` is set. */
  readonly reservedConnections?: number;
  /**
   * Errors of the server once it listens, such as an accept that failed because the process ran
   * out of file descriptors (EMFILE): the server goes on serving. Default: console.error.
   */
  readonly onError?: (error: Error) => void;
}

export const DEFAULT_MAX_CONNECTIONS = 512;
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 64;
export const DEFAULT_RESERVED_CONNECTIONS = 16;

export interface RunningServer {
  readonly server: Server;
  /** The connection limits in force (the defaults filled in). */
  readonly limits: ConnectionLimits;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish, then closes idle connections. */
  close(): Promise<void>;
}

/** The connection limits of `options`, the defaults filled in; a RangeError names a wrong one. */
function connectionLimits(options: ListenOptions): ConnectionLimits {
  const limits: ConnectionLimits = {
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxConnectionsPerClient: options.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
    reservedPath: options.reservedPath,
    reservedConnections:
      options.reservedPath === undefined
        ? 0
        : (options.reservedConnections ?? DEFAULT_RESERVED_CONNECTIONS),
  };
  for (const [name, n, least] of [
    ['maxConnections', limits.maxConnections, 1],
    ['maxConnectionsPerClient', limits.maxConnectionsPerClient, 1],
    ['reservedConnections', limits.reservedConnections, 0],
  ] as const)
    if (!Number.isSafeInteger(n) || n < least)
      throw new RangeError(
        `${name}: ${n} is not a whole number ${least === 1 ? 'above 0' : '0 or more'}`,
      );
  return limits;
}

export async function listen(
  handler: ServiceHandler,
  options: ListenOptions = {},
): Promise<RunningServer> {
  const limits = connectionLimits(options); // a RangeError rejects
  const server = process.getBuiltinModule('node:http').createServer({
    headersTimeout: options.headersTimeoutMs ?? 10_000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
    connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? 1_000,
  });
  const tracker = shareConnections(server, limits);
  const drain = drainOnClose(server);
  server.on('request', toNodeListener(handler, options, tracker));
  const onError = options.onError ?? ((e: Error) => console.error(e));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      // From here on an error is the operator's news, not this promise's (already settled).
      server.off('error', reject).on('error', onError);
      const { address, port } = server.address() as AddressInfo;
      const host = address.includes(':') ? `[${address}]` : address;
      resolve({ server, limits, url: `http://${host}:${port}`, close: drain });
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
