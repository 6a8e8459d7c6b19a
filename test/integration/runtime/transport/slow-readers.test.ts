// Slow readers cannot hold memory: a connection has at most one answer in memory at a time (a
// pipelined request waits until the answer before it is written), and an answer that is not
// taken within the write time-out closes its connection.
import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { listen, type RunningServer } from '@evgen/runtime';

const BIG = new Uint8Array(8 * 1024 * 1024).fill(0x61); // far beyond what socket buffers take
let server: RunningServer | undefined;
afterEach(() => server?.close());

const connections = (s: RunningServer) =>
  new Promise<number>((resolve, reject) =>
    s.server.getConnections((e, n) => (e ? reject(e) : resolve(n))),
  );

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
  const deadline = Date.now() + 10_000;
  while (calls === 0 || ((await connections(server)) > 0 && Date.now() < deadline))
    await new Promise((r) => setTimeout(r, 50));
  expect(await connections(server)).toBe(0); // the server closed it
  expect(calls).toBe(1);
  socket.destroy();
});

it('reports an answer written once all of it is out, and never one whose reader went away', async () => {
  const answers: { status: number; headers: Record<string, string>; body: Uint8Array }[] = [];
  const written: unknown[] = [];
  server = await listen(
    () => {
      const answer = { status: 200, headers: { 'content-type': 'text/plain' }, body: BIG };
      answers.push(answer);
      return Promise.resolve(answer);
    },
    // Time enough for a reader on a busy machine to take 8 MB (300 ms failed under load).
    { writeTimeoutMs: 3_000, onWritten: (a) => written.push(a) },
  );
  // A reader that takes it all: reported once, as the very object the handler returned.
  const whole = await (await fetch(`${server.url}/x`)).arrayBuffer();
  expect(whole.byteLength).toBe(BIG.length);
  // The server learns the last byte left a moment after the client has it.
  for (const deadline = Date.now() + 5_000; written.length === 0 && Date.now() < deadline; )
    await new Promise((r) => setTimeout(r, 10));
  // Compared by position: a failing diff of 8 MB bodies would exhaust the heap.
  const which = () => written.map((a) => answers.indexOf(a as (typeof answers)[number]));
  expect(which()).toEqual([0]);
  // A reader that takes nothing: its connection closes at the time-out, and it is not reported.
  const serverSide = new Promise<Socket>((resolve) => server!.server.once('connection', resolve));
  const { port } = new URL(server.url);
  const socket = connect({ port: Number(port), host: '127.0.0.1' });
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(`GET /y HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  const raw = await serverSide;
  if (!raw.destroyed) await new Promise((resolve) => raw.once('close', resolve));
  expect(answers).toHaveLength(2);
  expect(which()).toEqual([0]);
  socket.destroy();
});

it('keeps serving when the written callback throws', async () => {
  server = await listen(
    () => Promise.resolve({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' }),
    {
      onWritten: () => {
        throw new Error('owner bug');
      },
    },
  );
  for (let i = 0; i < 2; i++) expect(await (await fetch(`${server.url}/x`)).text()).toBe('ok');
});
