// One request forwarded to the target and its answer back to the client, streamed both ways:
// status, status text, header fields (but the hop-by-hop ones) and every body byte as the target
// sent them. A bounded copy of each body is kept on the way for the checks (capture.ts). No answer
// from the target: the client gets 502 (504 past the time-out) with a plain text saying why.
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { Capture, type Budget } from './capture.js';

/** Fields about one connection, not the message (RFC 9110 §7.6.1), and what the proxy answers itself. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** Raw header pairs without the hop-by-hop fields (and those the Connection field names). */
export function endToEnd(raw: readonly string[], replace?: { host: string }): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === 'connection')
      for (const t of raw[i + 1]!.split(',')) named.add(t.trim().toLowerCase());
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push(raw[i]!, name === 'host' && replace ? replace.host : raw[i + 1]!);
  }
  return out;
}

export interface Forwarded {
  readonly request: Capture;
  /** Whether the request body arrived whole before the answer ended. */
  readonly requestComplete: boolean;
  readonly response:
    | {
        readonly status: number;
        readonly statusMessage: string;
        readonly rawHeaders: readonly string[];
        readonly body: Capture;
      }
    | undefined;
  /** Why the target gave no (whole) answer. */
  readonly failure: string | undefined;
  /** The client went away before its answer was out: nothing to check. */
  readonly clientGone: boolean;
}

export interface ForwardOptions {
  /** Opens the request to the target (path and headers as given). */
  readonly open: (path: string, method: string, headers: string[]) => ClientRequest;
  readonly basePath: string;
  readonly target: string;
  /** The Host sent on (the client's, or the target's). */
  readonly host: (sent: string | undefined) => string;
  readonly rewriteHost: boolean;
  readonly maxCheckBytes: number;
  readonly budget: Budget;
  readonly timeoutMs: number;
}

const reason = (e: Error & { code?: string }) =>
  e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message;

/** Forwards one exchange; `done` is called once, when it is over either way. */
export function forward(
  o: ForwardOptions,
  req: IncomingMessage,
  res: ServerResponse,
  done: (f: Forwarded) => void,
): void {
  const request = new Capture(o.maxCheckBytes, o.budget);
  const headers = endToEnd(req.rawHeaders, o.rewriteHost ? { host: o.host(undefined) } : undefined);
  const up = o.open(o.basePath + (req.url ?? '/'), req.method ?? 'GET', headers);
  let response: Forwarded['response'];
  let finished = false;
  const finish = (failure?: string, clientGone = false) => {
    if (finished) return;
    finished = true;
    done({ request, requestComplete: req.complete, response, failure, clientGone });
  };
  up.setTimeout(o.timeoutMs, () =>
    up.destroy(
      Object.assign(new Error(`no answer within ${o.timeoutMs / 1000} s`), { code: 'TIMEOUT' }),
    ),
  );
  req.on('data', (c: Buffer) => request.add(c));
  req.pipe(up);
  req.on('error', () => up.destroy());
  up.on('response', (answer: IncomingMessage) => {
    const body = new Capture(o.maxCheckBytes, o.budget);
    response = {
      status: answer.statusCode ?? 502,
      statusMessage: answer.statusMessage ?? '',
      rawHeaders: answer.rawHeaders,
      body,
    };
    res.sendDate = false; // the target's Date, or none, as it sent it
    res.writeHead(response.status, response.statusMessage, endToEnd(answer.rawHeaders));
    answer.on('data', (c: Buffer) => body.add(c));
    answer.pipe(res);
    answer.on('end', () => finish());
    answer.on('error', (e) => {
      res.destroy();
      finish(`the answer broke off after ${body.total} bytes: ${reason(e)}`);
    });
  });
  up.on('error', (e: Error & { code?: string }) => {
    if (response) return; // the answer's own error handler reports it
    const text = `evgen proxy: no answer from the target ${o.target}: ${reason(e)}\n`;
    if (!res.headersSent)
      res
        .writeHead(e.code === 'TIMEOUT' ? 504 : 502, {
          'content-type': 'text/plain; charset=utf-8',
          'content-length': Buffer.byteLength(text),
        })
        .end(text);
    finish(reason(e));
  });
  res.on('close', () => {
    if (res.writableFinished) return;
    up.destroy();
    finish(undefined, true);
  });
}
