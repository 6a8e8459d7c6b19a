// Puts a framework-neutral ServiceHandler on node:http: bounded body reading (413, the rest of the
// body dropped up to a bound), header and request time-outs, graceful close that lets requests in flight finish.
// node:http is fetched when listen() runs, not imported, so the @evgen/runtime barrel has no static
// node: import and a browser bundle of the client needs no configuration.
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_BODY_BYTES, type ServiceHandler, type ServiceResponse } from './server.js';

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
}

export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;

const EMPTY = new Uint8Array(0);
const ignore = () => undefined;

/**
 * How much of a body past the limit is read and dropped before the 413 goes out, as a multiple of
 * the limit. A client that writes its whole body before it reads (fetch, most SOAP stacks) would
 * otherwise have the connection reset under it by the close, losing the answer; past this the
 * answer goes at once, so no client makes us read without end. Nothing dropped is kept.
 */
const DRAIN_FACTOR = 8;

/**
 * Calls `done` with the body, or with undefined once it passes `limit`: the rest is read and
 * dropped until it ends, or not read once past DRAIN_FACTOR times the limit. Callbacks, not a
 * promise: this runs once per request, and a client that goes away mid-body leaves nothing
 * pending (its listeners go with the request).
 */
function readBody(
  req: IncomingMessage,
  limit: number,
  done: (body: Uint8Array | undefined) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = (body: Uint8Array | undefined) => {
    req.off('data', onData).off('end', onEnd);
    done(body);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
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
  // Without a listener an 'error' (a client gone mid-body) would be thrown; it only ends the request.
  req.on('data', onData).on('end', onEnd).on('error', ignore);
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
 * Queues writes to run together once the event loop's current I/O callbacks are done (setImmediate),
 * in the order queued. Answers written one by one as their handlers finished woke the client's
 * reading thread for each (on small calls the kernel's wake-up was a tenth of the server's time);
 * written back to back after a turn's reads, the client finds them as it goes. An answer waits at
 * most for the rest of the turn it became ready in.
 */
function writeBatcher(): (write: () => void) => void {
  let queued: (() => void)[] = [];
  const flush = () => {
    const batch = queued;
    queued = [];
    for (const write of batch) write();
  };
  return (write) => {
    if (queued.push(write) === 1) setImmediate(flush);
  };
}

export function toNodeListener(handler: ServiceHandler, options: NodeListenerOptions = {}) {
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
  };
  const later = writeBatcher();

  const respond = (
    req: IncomingMessage,
    res: ServerResponse,
    out: ServiceResponse,
    whole: boolean,
  ) => {
    const headers: Record<string, string | number> = { ...out.headers };
    headers['content-length'] = Buffer.byteLength(out.body);
    if (!whole) headers.connection = 'close';
    res.writeHead(out.status, headers).end(out.body);
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
        (out) =>
          later(() => {
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
    else readBody(req, limit, call);
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
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
   * Connections open at once; past it a new one is closed as soon as it is accepted (the server's
   * 'drop' event tells). Default 512: half the usual limit of 1,024 open files, so a flood of
   * connections leaves the process descriptors for its own files and sockets (the reference
   * service holds about 90 with four worker threads, 14 more for each further one). Raise it
   * together with the limit (`ulimit -n`).
   */
  readonly maxConnections?: number;
  /**
   * Errors of the server once it listens, such as an accept that failed because the process ran
   * out of file descriptors (EMFILE): the server goes on serving. Default: console.error.
   */
  readonly onError?: (error: Error) => void;
}

export const DEFAULT_MAX_CONNECTIONS = 512;

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
  const max = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (!Number.isSafeInteger(max) || max < 1)
    return Promise.reject(new RangeError(`maxConnections: ${max} is not a whole number above 0`));
  const server = process.getBuiltinModule('node:http').createServer({
    headersTimeout: options.headersTimeoutMs ?? 10_000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
    connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? 1_000,
  });
  server.maxConnections = max;
  const drain = drainOnClose(server);
  server.on('request', toNodeListener(handler, options));
  const onError = options.onError ?? ((e: Error) => console.error(e));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      // From here on an error is the operator's news, not this promise's (already settled).
      server.off('error', reject).on('error', onError);
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
