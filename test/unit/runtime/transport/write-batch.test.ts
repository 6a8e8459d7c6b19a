// The node:http adapter writes the answers that become ready in one turn of the event loop
// together, after that turn's callbacks (onTurnEnd, in toNodeListener). Node's request and response
// are stood in for by the few members the adapter uses, so the order of events is exact.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { toNodeListener, type ServiceHandler } from '@evgen/runtime';

interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Ends the request's body (no bytes). */
  finish(): void;
}

/** A request for `url` on a connection of its own; its answer's writes go to `log`. */
function exchange(url: string, log: string[], failWrite = false): Exchange {
  const socket = { destroyed: false, destroy: () => log.push(`destroy ${url}`) };
  const req = Object.assign(new EventEmitter(), {
    method: 'POST',
    url,
    headers: {},
    rawHeaders: [],
    socket,
    pause: () => req,
  });
  let status = 0;
  const res = Object.assign(new EventEmitter(), {
    writableFinished: true,
    destroyed: false,
    headersSent: false,
    writeHead(code: number) {
      if (failWrite && code !== 500) throw new Error('socket gone');
      status = code;
      return res;
    },
    end(body?: unknown) {
      // The adapter writes a text body as its UTF-8 bytes.
      const text = body instanceof Uint8Array ? Buffer.from(body).toString() : body;
      log.push(`${status} ${url}${text ? ` ${String(text)}` : ''}`);
      return res;
    },
  });
  return {
    // Stand-ins: only the members the adapter reads are given.
    req: req as unknown as IncomingMessage,
    res: res as unknown as ServerResponse,
    finish: () => req.emit('end'),
  };
}

const echo: ServiceHandler = (req) =>
  Promise.resolve({ status: 200, headers: {}, body: `answer to ${req.url}` });
const afterChecks = () => new Promise((done) => setImmediate(() => setImmediate(done)));

describe('answers ready in one turn', () => {
  it('are written after the turn, together and in order, not as each handler finishes', async () => {
    const log: string[] = [];
    const listener = toNodeListener(echo);
    const [a, b] = [exchange('/a', log), exchange('/b', log)];
    listener(a.req, a.res);
    listener(b.req, b.res);
    // Queued before the answers are: it runs first in the check phase, after every microtask
    // (the handlers' promises) of this turn.
    setImmediate(() => log.push('check phase'));
    a.finish();
    b.finish();
    await afterChecks();
    expect(log).toEqual(['check phase', '200 /a answer to /a', '200 /b answer to /b']);
  });

  it('answers 500 when writing an answer throws, and still writes the others', async () => {
    const log: string[] = [];
    const listener = toNodeListener(echo);
    const [a, b] = [exchange('/a', log, true), exchange('/b', log)];
    listener(a.req, a.res);
    listener(b.req, b.res);
    a.finish();
    b.finish();
    await afterChecks();
    expect(log).toEqual(['500 /a', '200 /b answer to /b']);
  });
});
