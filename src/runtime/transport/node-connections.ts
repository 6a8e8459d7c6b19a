// Connections of the node:http listener, shared fairly: no client address may hold more than
// `maxConnectionsPerClient`; at `maxConnections` the connection idle the longest (between
// requests, or not yet past its request head) is closed to make room before a new one is refused;
// and `reservedConnections` more are kept for `reservedPath` (a load balancer's health check), so
// it is answered even at the limit. Without this one client holding slow or idle connections
// filled the limit and every other client, the health check included, was refused.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerClient: number;
  /** A path (e.g. /healthz) answered on `reservedConnections` kept past `maxConnections`. */
  readonly reservedPath: string | undefined;
  readonly reservedConnections: number;
}

/** Why a connection was closed without being served. */
export type ConnectionRefusal = 'per-client' | 'limit' | 'reserved';

/** What node:http's 'drop' event carries, with why (the server emits it for each refusal). */
export interface DroppedConnection {
  readonly remoteAddress: string | undefined;
  /** The client as the limits count it: its IPv4 address, or its IPv6 /64. */
  readonly client: string;
  readonly reason: ConnectionRefusal;
}

/** How long a connection let in on the reserve has to send its request head. */
export const RESERVED_HEAD_MS = 2_000;

interface Connection {
  readonly client: string;
  readonly reserved: boolean;
  /** Requests on it not yet answered (pipelined ones included). */
  busy: number;
  /** When it last fell idle (connected, or its last answer finished). */
  idleSince: number;
  /** On the reserve: closes it unless its request head comes in time. */
  late?: ReturnType<typeof setTimeout>;
}

/** The first four groups of an IPv6 address, written out (`2001:db8::1` → `2001:db8:0:0`). */
function ipv6Prefix(address: string): string {
  const [head = '', tail] = address.split('::');
  const groups = head === '' ? [] : head.split(':');
  if (tail !== undefined) {
    const rest = tail === '' ? [] : tail.split(':');
    groups.push(...Array<string>(8 - groups.length - rest.length).fill('0'), ...rest);
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * The client a connection counts against: an IPv4 address (mapped ones too), or an IPv6 /64,
 * which one subscriber usually holds whole (per address, one client would be 2^64 of them).
 */
export function clientOf(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  return address.includes(':') ? ipv6Prefix(address.split('%')[0]!) : address;
}

const REFUSED =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 1\r\nConnection: close\r\n\r\n';

/** What the request listener tells the limits about each request (node.ts's toNodeListener). */
export interface ConnectionTracker {
  /** A request came: false when it was answered here (on the reserve, for another path). */
  begin(req: IncomingMessage, res: ServerResponse): boolean;
  /** A request's answer is out, or its connection gone: once per request begun. */
  end(socket: object): void;
}

/** For a listener without limits. */
export const UNTRACKED: ConnectionTracker = { begin: () => true, end: () => undefined };

/** Applies `limits` to `server`'s connections; the listener tells the tracker of each request. */
export function shareConnections(server: Server, limits: ConnectionLimits): ConnectionTracker {
  const open = new Map<Socket, Connection>();
  const perClient = new Map<string, number>();
  let regular = 0;
  let reserved = 0;

  const dropped = (socket: Socket, client: string, reason: ConnectionRefusal) => {
    const d: DroppedConnection = { remoteAddress: socket.remoteAddress, client, reason };
    server.emit('drop', d);
  };
  const refuse = (socket: Socket, client: string, reason: ConnectionRefusal) => {
    // A short answer saying why and when to come back, then the connection goes: a client over
    // its share learns it, one that never reads holds nothing.
    socket.on('error', () => undefined);
    socket.end(REFUSED);
    socket.destroySoon();
    dropped(socket, client, reason);
  };

  /** Closes the connection idle the longest; false when every connection is busy. */
  const shedIdle = (): boolean => {
    let oldest: [Socket, Connection] | undefined;
    for (const entry of open)
      if (
        !entry[1].reserved &&
        entry[1].busy === 0 &&
        (!oldest || entry[1].idleSince < oldest[1].idleSince)
      )
        oldest = entry;
    if (!oldest) return false;
    oldest[0].destroy();
    forget(oldest[0]);
    return true;
  };

  const forget = (socket: Socket) => {
    const c = open.get(socket);
    if (!c) return;
    open.delete(socket);
    if (c.reserved) reserved--;
    else regular--;
    const n = (perClient.get(c.client) ?? 1) - 1;
    if (n === 0) perClient.delete(c.client);
    else perClient.set(c.client, n);
  };

  server.on('connection', (socket: Socket) => {
    const client = clientOf(socket.remoteAddress);
    if ((perClient.get(client) ?? 0) >= limits.maxConnectionsPerClient)
      return refuse(socket, client, 'per-client');
    let onReserve = false;
    if (regular >= limits.maxConnections && !shedIdle()) {
      if (limits.reservedPath === undefined || reserved >= limits.reservedConnections)
        return refuse(socket, client, 'limit');
      onReserve = true;
    }
    const c: Connection = { client, reserved: onReserve, busy: 0, idleSince: performance.now() };
    open.set(socket, c);
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    if (onReserve) {
      reserved++;
      c.late = setTimeout(
        () => (socket.destroy(), dropped(socket, client, 'reserved')),
        RESERVED_HEAD_MS,
      );
    } else regular++;
    socket.once('close', () => (clearTimeout(c.late), forget(socket)));
  });

  return {
    begin(req, res) {
      const c = open.get(req.socket);
      if (!c) return true;
      c.busy++;
      if (!c.reserved) return true;
      clearTimeout(c.late);
      res.shouldKeepAlive = false; // one request on the reserve, then the slot is free again
      if ((req.url ?? '').split('?')[0] === limits.reservedPath) return true;
      res.writeHead(503, { 'content-length': 0, 'retry-after': '1' }).end();
      dropped(req.socket, c.client, 'reserved');
      return false;
    },
    end(socket) {
      const c = open.get(socket as Socket);
      if (!c || c.busy === 0) return;
      if (--c.busy === 0) c.idleSince = performance.now();
    },
  };
}
