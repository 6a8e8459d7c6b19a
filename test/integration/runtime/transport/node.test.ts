// The node:http adapter: oversize bodies refused without keeping them (answered by the engine in
// the binding's fault form), clients that vanish, and a graceful close that lets requests in
// flight finish.
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen } from '@evgen/runtime';
import { parseFault } from '@evgen/runtime/internal';
import { WIRE } from '@evgen/event-management/service';
import {
  ENDPOINT,
  authValues,
  credentialHeaders,
  send,
  startServer,
  type Harness,
} from './fixtures.js';

interface Outcome {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  sent: number;
}

/** POSTs up to `total` bytes in 1 KiB chunks, stopping as soon as the answer arrives. */
function upload(h: Harness, total: number, declareLength: boolean): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const u = new URL(h.url);
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = { 'content-type': 'text/xml; charset=utf-8' };
    if (declareLength) headers['content-length'] = String(total);
    const req = request(
      { host: u.hostname, port: u.port, path: ENDPOINT, method: 'POST', headers },
      (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, sent }));
      },
    );
    req.on('error', (e) => (answered ? undefined : reject(e))); // EPIPE after the answer is expected
    const chunk = Buffer.alloc(1024, 'x');
    const pump = () => {
      if (answered || req.destroyed) return;
      if (sent >= total) return void req.end();
      sent += chunk.length;
      req.write(chunk, () => setTimeout(pump, 1));
    };
    pump();
  });
}

/** Writes a whole request of `size` body bytes, and only then reads: what the server answered. */
function writeThenRead(h: Harness, size: number, chunked: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new URL(h.url);
    const socket = connect(Number(u.port), u.hostname);
    const body = Buffer.alloc(size, 'x');
    const framing = chunked ? 'transfer-encoding: chunked' : `content-length: ${size}`;
    const head = `POST ${ENDPOINT} HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: text/xml; charset=utf-8\r\n${framing}\r\n\r\n`;
    const parts = chunked
      ? [head, `${size.toString(16)}\r\n`, body, '\r\n0\r\n\r\n']
      : [head, body];
    let text = '';
    socket.on('error', reject);
    socket.write(
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))),
      (e) => {
        if (e) return reject(e);
        socket.setEncoding('latin1').on('data', (c: string) => (text += c));
        socket.on('end', () => resolve(text));
      },
    );
  });
}

describe('oversize bodies', () => {
  it('answers 413 from Content-Length alone when it declares past the drain, before reading the body, and closes the connection', async () => {
    const h = await startServer({}, {}, 16 * 1024);
    try {
      const r = await upload(h, 50 * 1024 * 1024, true);
      expect(r.status).toBe(413);
      expect(r.headers.connection).toBe('close');
      // The SOAP 1.1 binding's own fault form, the code the spec names for a refused request.
      const type = String(r.headers['content-type']);
      const fault = parseFault('soap11', 413, type, new TextEncoder().encode(r.text), WIRE.faults);
      expect(fault?.code).toBe(WIRE.faults.raisedFor.request);
      expect(r.sent).toBeLessThan(1024 * 1024);
      expect(h.calls).toEqual([]);
    } finally {
      await h.server.close();
    }
  });

  it('answers 413 while streaming a chunked body past the drain, without reading the rest', async () => {
    const h = await startServer({}, {}, 16 * 1024);
    try {
      const r = await upload(h, 50 * 1024 * 1024, false);
      expect(r.status).toBe(413);
      expect(r.headers.connection).toBe('close');
      expect(r.sent).toBeLessThan(1024 * 1024);
    } finally {
      await h.server.close();
    }
  });

  // fetch, like most SOAP stacks, writes the whole body before it reads: were the rest of the body
  // left unread when the connection closes, the kernel would reset it and the answer be lost.
  it.each([
    { given: 'a declared Content-Length', chunked: false },
    { given: 'a chunked body', chunked: true },
  ])(
    'answers 413 to a client that reads only once its body a few times the limit is written ($given)',
    async ({ chunked }) => {
      const limit = 1024 * 1024;
      const h = await startServer({}, {}, limit);
      try {
        const r = await writeThenRead(h, 4 * limit, chunked);
        expect(r).toMatch(/^HTTP\/1.1 413 /);
        expect(r).toMatch(/\r\nconnection: close\r\n/i);
        expect(h.calls).toEqual([]);
      } finally {
        await h.server.close();
      }
    },
  );

  it('keeps serving after a client vanishes in the middle of its body', async () => {
    const h = await startServer();
    try {
      const u = new URL(h.url);
      await new Promise<void>((resolve) => {
        const req = request({
          host: u.hostname,
          port: u.port,
          path: ENDPOINT,
          method: 'POST',
          headers: { 'content-length': '10000', 'content-type': 'text/xml' },
        });
        req.on('error', () => undefined);
        req.write('<partial', () => setTimeout(() => (req.destroy(), resolve()), 20));
      });
      const r = await send(`${h.url}${ENDPOINT}/Echo?count=1&text=a`, {
        headers: credentialHeaders(authValues('Echo')),
      });
      expect(r.status).toBe(200);
    } finally {
      await h.server.close();
    }
  });
});

describe('listen', () => {
  it('hands every server error after listening to onError: none swallowed, none a crash', async () => {
    // Before, listen's reject stayed attached: the first later error (an accept failing with
    // EMFILE when descriptors run out) vanished, and the next one, with no listener, crashed.
    const errors: Error[] = [];
    const server = await listen(() => Promise.reject(new Error('unused')), {
      onError: (e) => errors.push(e),
    });
    try {
      expect(server.server.listenerCount('error')).toBe(1);
      const accept = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' });
      server.server.emit('error', accept);
      server.server.emit('error', accept);
      expect(errors).toEqual([accept, accept]);
    } finally {
      await server.close();
    }
  });

  it('rejects with the listen error, and the port taken stays with its owner', async () => {
    const h = await startServer();
    try {
      const port = Number(new URL(h.url).port);
      await expect(
        listen(() => Promise.reject(new Error('unused')), { port }),
      ).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await h.server.close();
    }
  });

  it('sends each body as its UTF-8 bytes, with their count as Content-Length', async () => {
    const cases: { given: string | Uint8Array; want: { length: number; text: string } }[] = [
      { given: '<a>plain</a>', want: { length: 12, text: '<a>plain</a>' } },
      { given: 'caf\u00e9 \u20ac', want: { length: 9, text: 'caf\u00e9 \u20ac' } },
      { given: '\u{1F600}', want: { length: 4, text: '\u{1F600}' } },
      { given: '', want: { length: 0, text: '' } },
      // Past the length written as text (encoded to bytes first).
      { given: '\u00e9'.repeat(5000), want: { length: 10_000, text: '\u00e9'.repeat(5000) } },
      {
        given: new TextEncoder().encode('bytes \u00e9'),
        want: { length: 8, text: 'bytes \u00e9' },
      },
    ];
    const server = await listen((req) =>
      Promise.resolve({ status: 200, headers: {}, body: cases[Number(req.url.slice(1))]!.given }),
    );
    try {
      for (const [i, { want }] of cases.entries()) {
        const res = await fetch(`${server.url}/${i}`);
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect({
          length: Number(res.headers.get('content-length')),
          text: new TextDecoder().decode(bytes),
        }).toEqual(want);
        expect(bytes.length).toBe(want.length);
      }
    } finally {
      await server.close();
    }
  });

  it('listens on 127.0.0.1 at a free port', async () => {
    const h = await startServer();
    try {
      expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await h.server.close();
    }
  });

  it('closes gracefully: a request in flight finishes, idle keep-alive connections do not hold it up', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const h = await startServer({
      echo: async (p) => {
        entered();
        await gate;
        return p;
      },
    });
    // An idle keep-alive connection from an earlier call.
    expect(
      (
        await send(`${h.url}${ENDPOINT}/Forget?ref=a`, {
          headers: credentialHeaders(authValues('Forget')),
        })
      ).status,
    ).toBe(200);
    const inFlight = send(`${h.url}${ENDPOINT}/Echo?count=3&text=slow`, {
      headers: credentialHeaders(authValues('Echo')),
    });
    await inside;
    let closed = false;
    const closing = h.server.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    const r = await inFlight;
    expect([r.status, r.text.includes('<text>slow</text>')]).toEqual([200, true]);
    const started = Date.now();
    await closing;
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(fetch(`${h.url}${ENDPOINT}?wsdl`)).rejects.toThrow();
  });

  it('answers 500 and keeps serving when an answer cannot be written, and hands the handler single-valued headers', async () => {
    const seen: Record<string, string | undefined>[] = [];
    const server = await listen((req) => {
      seen.push({ ...req.headers });
      const bad = req.url === '/bad';
      // A header value with a line break: node:http refuses to write it.
      const headers: Record<string, string> = bad
        ? { 'x-broken': 'a\nb' }
        : { 'content-type': 'text/plain' };
      return Promise.resolve({ status: 200, headers, body: 'ok' });
    });
    try {
      const bad = await fetch(`${server.url}/bad`);
      expect([bad.status, await bad.text()]).toEqual([500, '']);
      const good = await fetch(`${server.url}/good`, {
        headers: [
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ],
      });
      expect([good.status, await good.text()]).toEqual([200, 'ok']);
      expect(seen[1]!['set-cookie']).toBe('a=1, b=2');
      expect(Object.values(seen[1]!).every((v) => typeof v === 'string')).toBe(true);
    } finally {
      await server.close();
    }
  });
});
