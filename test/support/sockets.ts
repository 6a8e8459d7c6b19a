// A raw TCP connection to a test server, for what only sockets show: connections the server
// closes without an answer, or answers before closing.
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
