// A raw TCP connection to a test server, for what only sockets show: connections the server
// closes without an answer, or answers before closing.
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  readonly socket: Socket;
  /** Once the server closes it: what it sent, and the ms from connecting to closing. */
  readonly closed: Promise<{ data: string; ms: number }>;
}

/** Connects to `url`'s host and port and sends nothing; `sockets` collects it for clean-up. */
export async function rawConnection(url: string, sockets?: Socket[]): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets?.push(socket);
  await new Promise((r) => socket.once('connect', r));
  const started = Date.now();
  let data = '';
  socket.setEncoding('utf8').on('data', (c: string) => (data += c));
  socket.on('error', () => undefined); // a reset is one way of being closed
  const closed = new Promise<{ data: string; ms: number }>((r) =>
    socket.once('close', () => r({ data, ms: Date.now() - started })),
  );
  return { socket, closed };
}

/**
 * A `fetch` whose connections leave from `localAddress` (any 127.x.y.z on loopback is this
 * machine): another client, by address, for a server that counts connections per client. Keeps
 * its connections alive between calls, as an HTTP client library would.
 */
export function fetchFrom(localAddress: string): typeof fetch & { close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 16, localAddress });
  const call = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          agent,
          signal: init.signal ?? undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers))
              if (typeof v === 'string') headers.set(k, v);
            resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers }));
          });
        },
      );
      req.on('error', reject);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
  };
  return Object.assign(call, { close: () => agent.destroy() });
}
