// Slow or stalled clients cannot pin the server: the header and request time-outs close them.
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENDPOINT, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(
    {},
    { headersTimeoutMs: 300, requestTimeoutMs: 600, connectionsCheckingIntervalMs: 100 },
  );
});
afterAll(() => h.server.close());

/** Opens a raw connection, writes `data`, and resolves with what the server said when it closed. */
function stall(data: string): Promise<{ closedAfterMs: number; reply: string }> {
  const { port } = new URL(h.server.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let reply = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(data));
    socket.on('data', (d) => (reply += d.toString()));
    socket.on('close', () => resolve({ closedAfterMs: Date.now() - started, reply }));
    socket.on('error', reject);
    setTimeout(
      () => (socket.destroy(), reject(new Error('the server kept a stalled connection open'))),
      5_000,
    );
  });
}

it('closes a client that never finishes its headers', async () => {
  const { closedAfterMs, reply } = await stall(
    `POST ${ENDPOINT} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n`,
  );
  expect(closedAfterMs).toBeLessThan(3_000);
  expect(reply).toMatch(/^HTTP\/1\.1 408/);
});

it('closes a client that never finishes its body', async () => {
  const { closedAfterMs, reply } = await stall(
    `POST ${ENDPOINT} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<soap:Envelope`,
  );
  expect(closedAfterMs).toBeLessThan(3_000);
  expect(reply).toMatch(/^HTTP\/1\.1 408/);
});
