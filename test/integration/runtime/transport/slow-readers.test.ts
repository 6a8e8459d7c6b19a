// Slow readers cannot hold memory: a connection has at most one answer in memory at a time (a
// pipelined request waits until the answer before it is written), and an answer that is not
// taken within the write time-out closes its connection.
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { listen, type RunningServer } from '@evgen/runtime';

const BIG = new Uint8Array(8 * 1024 * 1024).fill(0x61); // far beyond what socket buffers take
let server: RunningServer | undefined;
afterEach(() => server?.close());

it('answers one pipelined request at a time and closes a connection that does not read', async () => {
  let calls = 0;
  server = await listen(
    () => {
      calls++;
      return Promise.resolve({ status: 200, headers: { 'content-type': 'text/plain' }, body: BIG });
    },
    { writeTimeoutMs: 300 },
  );
  const { port } = new URL(server.url);
  const socket = connect({ port: Number(port), host: '127.0.0.1' });
  socket.pause(); // never reads a byte
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  const get = `GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  socket.write(get.repeat(3)); // three pipelined requests in one packet
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server!.server.getConnections((e, n) => (e ? reject(e) : resolve(n))),
    );
  const deadline = Date.now() + 10_000;
  while (calls === 0 || ((await connections()) > 0 && Date.now() < deadline))
    await new Promise((r) => setTimeout(r, 50));
  expect(await connections()).toBe(0); // the server closed it
  expect(calls).toBe(1);
  socket.destroy();
});
