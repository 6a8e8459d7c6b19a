// A test double of the Event Management Web Service Interface, written from the document and
// sharing no code with the reference service or the runtime: node:http, node:crypto and the
// records in records.ts. It implements a few operations on all four bindings (the others answer
// "not implemented"), the signed AuthenticationHeader with the decisions of spec/gaps.yaml, and
// can be switched to one defect at a time, so every conformance check is shown to fail on its own.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import type { Defect } from './defects.js';
import { DOCUMENT_OPERATIONS } from '../document-catalogue.js';
import { OPERATIONS, type Answer } from './records.js';
import { bodyOperation, readDocument, Refusal, textOf } from './reading.js';

export const DOUBLE_KEY = { apiKey: 'double-key', secretKey: 'double-secret' };
const ENDPOINT = '/API/1_0/SOAP/ServiceAPI.asmx';
const MAX_BODY = 1 << 20;
const WINDOW_MS = 300_000;
/** How long the stalling defects let a slow client hold them before dropping it. */
const READ_TIMEOUT_MS = 5_000;
const ENV = {
  soap11: 'http://schemas.xmlsoap.org/soap/envelope/',
  soap12: 'http://www.w3.org/2003/05/soap-envelope',
};
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const TYPES = {
  soap11: 'text/xml; charset=utf-8',
  soap12: 'application/soap+xml; charset=utf-8',
  http: 'text/xml; charset=utf-8',
};
type Binding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';
/** `type` '' sends no Content-Type. */
type Reply = { status: number; type: string; body: string };

export interface Double {
  readonly url: string;
  close(): Promise<void>;
}

export async function startDouble(defect?: Defect): Promise<Double> {
  const has = (d: Defect) => d === defect;
  const seen = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();

  const fault = (binding: Binding, ns: string, e: Refusal): Reply => {
    const message = has('stack-trace')
      ? `${e.message}\n    at XmlReader.parse (xml.js:42:7)`
      : e.message;
    const code = has('no-error-code') ? '' : `<ErrorCode xmlns="${ns}">${e.code}</ErrorCode>`;
    const sender = e.code !== 'Internal';
    if (binding === 'soap11')
      return {
        status: 500,
        type: TYPES.soap11,
        body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENV.soap11}"><soap:Body><soap:Fault><faultcode>soap:${sender ? 'Client' : 'Server'}</faultcode><faultstring>${esc(message)}</faultstring><detail>${code}</detail></soap:Fault></soap:Body></soap:Envelope>`,
      };
    if (binding === 'soap12')
      return {
        status: sender ? 400 : 500,
        type: TYPES.soap12,
        body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENV.soap12}"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:${sender ? 'Sender' : 'Receiver'}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${esc(message)}</soap:Text></soap:Reason><soap:Detail>${code}</soap:Detail></soap:Fault></soap:Body></soap:Envelope>`,
      };
    return {
      status: e.httpStatus,
      type: 'text/plain; charset=utf-8',
      body: `${has('no-error-code') ? '' : `${e.code}: `}${message}\n`,
    };
  };

  const verify = (v: Record<string, string | undefined>, op: string, binding: Binding) => {
    const refuse = (why: string) => new Refusal('AuthenticationFailed', why, 403);
    if (!v.APIKey || !v.Timestamp || !v.Signature) {
      if (has('no-credentials-accepted')) return;
      throw new Refusal('AuthenticationFailed', 'credentials missing', 401);
    }
    const operation = v.Operation ?? op;
    if (v.APIKey !== DOUBLE_KEY.apiKey && !has('unknown-key-accepted'))
      throw refuse(`unknown API key ${v.APIKey}`);
    const formatted = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v.Timestamp);
    const ms = Date.parse(v.Timestamp);
    if ((!formatted && !has('lenient-timestamp')) || Number.isNaN(ms))
      throw refuse('malformed Timestamp');
    const age = Date.now() - ms; // a careless window only looks back: the future passes
    if (
      (has('future-timestamp-accepted') ? age : Math.abs(age)) > WINDOW_MS &&
      !has('no-timestamp-window')
    )
      throw refuse('Timestamp outside the window');
    if (operation !== op && !has('operation-header-ignored'))
      throw refuse(`Operation ${operation} does not name ${op}`);
    const want = createHmac('sha1', DOUBLE_KEY.secretKey)
      .update(operation + v.Timestamp)
      .digest('base64');
    if (v.Signature !== want && !has('bad-signature-accepted')) throw refuse('wrong Signature');
    const replayKey = [
      v.APIKey,
      operation,
      v.Timestamp,
      has('replay-other-binding') ? binding : '',
    ].join('|');
    if (seen.has(replayKey) && !has('no-replay-refusal')) throw refuse('replayed request');
    seen.add(replayKey);
  };

  const answer = (
    binding: Binding,
    ns: string,
    op: string,
    params: Record<string, string>,
  ): Reply => {
    const ns2 = has('wrong-namespace') ? 'http://tempuri.org/' : ns;
    const implemented = OPERATIONS[op];
    if (!implemented) {
      if (has('unknown-operation-accepted') && !DOCUMENT_OPERATIONS.includes(op))
        return ok(binding, ns2, op, { inner: '', httpRoot: `${op}Result` });
      throw new Refusal(
        'InvalidRequest',
        DOCUMENT_OPERATIONS.includes(op)
          ? `${op} is not implemented by this double`
          : `no operation ${op}`,
        404,
      );
    }
    const a = implemented(params, has, binding);
    if (!a) throw new Refusal('NotFound', `no record for ${JSON.stringify(params)}`, 404);
    return ok(binding, ns2, op, a);
  };

  /** A 200 answer; no result (inner null) is an empty body (HTTP) or no Result element (SOAP). */
  const ok = (binding: Binding, ns: string, op: string, { inner, httpRoot }: Answer): Reply => {
    if (binding === 'httpGet' || binding === 'httpPost') {
      if (inner === null && httpRoot === '')
        return { status: 200, type: has('asmx-void-answer') ? '' : TYPES.http, body: '' };
      const root = `<${httpRoot} xmlns="${ns}" xmlns:xsi="${XSI}"`;
      return {
        status: 200,
        type: TYPES.http,
        body: `<?xml version="1.0" encoding="utf-8"?>${inner === null ? `${root} xsi:nil="true" />` : `${root}>${inner}</${httpRoot}>`}`,
      };
    }
    const type = binding === 'soap12' && has('content-type') ? TYPES.soap11 : TYPES[binding];
    const result = inner === null ? '' : `<${op}Result>${inner}</${op}Result>`;
    return {
      status: 200,
      type,
      body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENV[binding]}" xmlns:xsi="${XSI}"><soap:Body><${op}Response xmlns="${ns}">${result}</${op}Response></soap:Body></soap:Envelope>`,
    };
  };

  const soap = (req: IncomingMessage, text: string, ns: string): Reply => {
    const type = req.headers['content-type'] ?? '';
    const binding: Binding = type.startsWith('application/soap+xml') ? 'soap12' : 'soap11';
    try {
      const xml = readDocument(text, has);
      const op = bodyOperation(xml);
      if (!op) throw new Refusal('InvalidRequest', 'the SOAP Body holds no operation', 400);
      const action =
        binding === 'soap11'
          ? (req.headers.soapaction as string | undefined)
          : /action="([^"]*)"/.exec(type)?.[1];
      if (
        action !== undefined &&
        action.replace(/"/g, '') !== ns + op.name &&
        !has('soapaction-ignored')
      )
        throw new Refusal(
          'InvalidRequest',
          'SOAPAction does not name the operation in the Body',
          400,
        );
      const header =
        /<(?:[\w.-]+:)?AuthenticationHeader[\s\S]*?AuthenticationHeader>/.exec(xml)?.[0] ?? '';
      const v = Object.fromEntries(
        ['APIKey', 'Timestamp', 'Signature', 'Operation'].map((k) => [k, textOf(header, k)]),
      );
      verify(v, op.name, binding);
      const params = Object.fromEntries(
        [...op.content.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((m) => [m[1]!, m[2]!]),
      );
      return answer(binding, ns, op.name, params);
    } catch (e) {
      return fault(
        binding,
        ns,
        e instanceof Refusal ? e : new Refusal('Internal', 'Internal error', 500),
      );
    }
  };

  const http = (req: IncomingMessage, text: string, ns: string, url: URL): Reply => {
    const binding: Binding = req.method === 'GET' ? 'httpGet' : 'httpPost';
    try {
      const op = url.pathname.slice(ENDPOINT.length + 1);
      const form = binding === 'httpGet' ? url.searchParams : new URLSearchParams(text);
      const h = (k: string) => req.headers[k.toLowerCase()] as string | undefined;
      verify(
        {
          APIKey: h('APIKey'),
          Timestamp: h('Timestamp'),
          Signature: h('Signature'),
          Operation: h('Operation'),
        },
        op,
        binding,
      );
      return answer(binding, ns, op, Object.fromEntries(form));
    } catch (e) {
      return fault(
        binding,
        ns,
        e instanceof Refusal ? e : new Refusal('Internal', 'Internal error', 500),
      );
    }
  };

  // stalls-while-held: bodies still arriving; every answer waits until there are none.
  const arriving = new Set<IncomingMessage>();
  const settled: (() => void)[] = [];
  const bodyDone = (req: IncomingMessage) => {
    if (!arriving.delete(req) || arriving.size > 0) return;
    for (const go of settled.splice(0)) go();
  };
  const noBodyArriving = () =>
    arriving.size === 0 ? Promise.resolve() : new Promise<void>((go) => settled.push(go));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (has('stalls-while-held')) {
      arriving.add(req);
      // A body not in after READ_TIMEOUT_MS: its client is dropped.
      const drop = setTimeout(() => req.socket.destroy(), READ_TIMEOUT_MS);
      req.once('end', () => (clearTimeout(drop), bodyDone(req)));
      req.once('close', () => (clearTimeout(drop), bodyDone(req)));
    }
    const body = await readBody(req, has('no-body-limit') ? Infinity : MAX_BODY);
    if (has('stalls-while-held')) await noBodyArriving();
    if (has('no-answer-to-malformed') && body?.startsWith('<not-xml'))
      return void req.socket.destroy(); // the connection closes without an answer
    const ns = `https://${req.headers.host}/API/1_0/SOAP/`;
    const url = new URL(req.url ?? '/', 'http://double');
    const reply: Reply =
      body === undefined
        ? { status: 413, type: 'text/plain', body: 'InvalidRequest: body too large\n' }
        : url.pathname === ENDPOINT && req.method === 'GET' && url.search === '?wsdl'
          ? { status: 200, type: TYPES.http, body: wsdl(ns, has) }
          : url.pathname === ENDPOINT
            ? soap(req, body, ns)
            : http(req, body, ns, url);
    const single = has('one-connection-at-a-time'); // one connection a turn: let it go after
    res
      .writeHead(reply.status, {
        ...(reply.type ? { 'content-type': reply.type } : {}),
        ...(single ? { connection: 'close' } : {}),
      })
      .end(reply.body);
  };

  const server = createServer((req, res) => {
    const run = () => handle(req, res).catch(() => res.destroy());
    if (!has('one-at-a-time')) return void run();
    queue = queue.then(run, run); // every request waits for the one before to finish
  });
  // one-connection-at-a-time: connections are accepted paused and given to node:http one at a
  // time, as a single-threaded accept loop would; a client slower than READ_TIMEOUT_MS is dropped.
  const front = has('one-connection-at-a-time')
    ? oneConnectionAtATime(server, READ_TIMEOUT_MS)
    : server;
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (front !== server) front.close();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server handing its connections to `http` one at a time, each for at most `limitMs`. */
function oneConnectionAtATime(http: ReturnType<typeof createServer>, limitMs: number): NetServer {
  const waiting: Socket[] = [];
  let busy = false;
  const next = () => {
    if (busy) return;
    const socket = waiting.shift();
    if (!socket) return;
    if (socket.destroyed) return next();
    busy = true;
    const drop = setTimeout(() => socket.destroy(), limitMs);
    socket.once('close', () => {
      clearTimeout(drop);
      busy = false;
      next();
    });
    http.emit('connection', socket);
    socket.resume();
  };
  const front = createNetServer({ pauseOnConnect: true }, (socket) => {
    socket.on('error', () => undefined);
    waiting.push(socket);
    next();
  });
  front.on('close', () => waiting.splice(0).forEach((s) => s.destroy()));
  return front;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function wsdl(ns: string, has: (d: Defect) => boolean): string {
  const names = has('wsdl-missing-operation') ? DOCUMENT_OPERATIONS.slice(1) : DOCUMENT_OPERATIONS;
  const ops = names.map((n) => `<operation name="${n}"/>`).join('');
  return `<?xml version="1.0" encoding="utf-8"?><definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="${ns}"><portType name="ServiceAPISoap">${ops}</portType></definitions>`;
}

/** The body, or undefined past `limit` bytes; rejects when the client goes away mid-body. */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) return reject(new Error('closed')); // went away while queued
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) return resolve(undefined);
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('close', () => reject(new Error('closed')));
  });
}
