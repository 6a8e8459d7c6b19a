// evgen proxy as a library: listens, forwards every request to the target and its answer back
// unchanged (forward.ts), then checks the exchange (inspect.ts). Bounded: connections, in all and
// per client as the service shares them (each holds at most one exchange to the target, so the
// target sees no more), the bytes kept for checks
// (capture.ts), the checks waiting to run, the findings kept (report.ts), the cassette's backlog
// (cassette.ts).
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  type Level,
} from '@evgen/runtime';
import {
  AnswerChecker,
  isPlainHost,
  shareConnections,
  namespaceFor,
} from '@evgen/runtime/internal';
import { Budget } from './capture.js';
import type { CassetteWriter } from './cassette.js';
import type { Finding } from './finding.js';
import { forward, type Forwarded } from './forward.js';
import { inspect, routeName } from './inspect.js';
import { ProxyLog, type ProxyReport } from './report.js';
import type { RequestContext } from './request-checks.js';
import { routeOf } from './routes.js';
import type { SecretLookup } from './secrets.js';
import type { ServiceTables } from './tables.js';
import { TimestampMemory } from './timestamps.js';

export interface ProxyOptions {
  /** The target's base URL, e.g. https://events.example.com (its endpoint path is the spec's). */
  readonly target: string;
  readonly tables: ServiceTables;
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** document (default): what the interface document says; evgen: also our gap decisions. */
  readonly level?: Level;
  /** Secrets by API key, to verify signatures (none: signatures are not verified). */
  readonly secrets?: SecretLookup;
  /** Secrets redacted wherever they appear in a cassette or report. */
  readonly knownSecrets?: readonly string[];
  /** Send the target's host as Host (default: the client's, so addresses in answers lead back here). */
  readonly rewriteHost?: boolean;
  /** The {soap_namespace} requests and answers must be in (default: from the Host, or the target's). */
  readonly namespace?: string;
  readonly record?: CassetteWriter;
  /** Largest body checked (and recorded); longer ones are forwarded unchecked. Default 16 MiB. */
  readonly maxCheckBytes?: number;
  /**
   * Connections open at once; at it the one idle the longest is closed, else a new one is refused
   * (503). Default: the service's, 512.
   */
  readonly maxConnections?: number;
  /** Connections one client address (an IPv6 /64) may hold; past it new ones are refused. Default 64. */
  readonly maxConnectionsPerClient?: number;
  /** Exchanges over, waiting for their checks; past it an exchange goes unchecked. Default 256. */
  readonly maxPendingChecks?: number;
  /** Time the target may stay silent before the client gets 504. Default 120 s. */
  readonly targetTimeoutMs?: number;
  /** Each new distinct finding, as it is seen. */
  readonly onFinding?: (f: Finding) => void;
}

export interface RunningProxy {
  readonly url: string;
  readonly level: Level;
  report(): ProxyReport;
  /** Resolves once every exchange in flight now is over and checked. */
  idle(): Promise<void>;
  /**
   * Stops accepting, lets the exchanges in flight end (cut after `graceMs`), waits for their
   * checks, closes the cassette, and gives the report.
   */
  close(graceMs?: number): Promise<ProxyReport>;
}

export const DEFAULT_MAX_CHECK_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_PENDING_CHECKS = 256;
export const CHECKS_BEHIND = 'the checks fell behind (exchange forwarded, not checked or recorded)';

/** The namespaces requests to this host may use: the Host's and the target's (or the fixed one). */
function namespaces(o: ProxyOptions): (host: string) => readonly string[] {
  const rule = o.tables.wire.namespace;
  const target = namespaceFor(o.target, rule);
  const cache = new Map<string, readonly string[]>();
  return (host) => {
    if (o.namespace !== undefined) return [o.namespace];
    let ns = cache.get(host);
    if (!ns) {
      const own = namespaceFor(isPlainHost(host) ? host : 'localhost', rule);
      ns = own === target ? [own] : [own, target];
      if (cache.size >= 1_000) cache.clear();
      cache.set(host, ns);
    }
    return ns;
  };
}

export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(o.target);
  const secure = target.protocol === 'https:';
  const maxConnections = o.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const maxCheckBytes = o.maxCheckBytes ?? DEFAULT_MAX_CHECK_BYTES;
  const maxPendingChecks = o.maxPendingChecks ?? DEFAULT_MAX_PENDING_CHECKS;
  const level = o.level ?? 'document';
  // One request to the target per client connection at most: as many sockets as connections.
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: maxConnections })
    : new http.Agent({ keepAlive: true, maxSockets: maxConnections });
  const request = secure ? https.request : http.request;
  const budget = new Budget(4 * maxCheckBytes);
  const log = new ProxyLog();
  const checker = new AnswerChecker({ ...o.tables, level });
  const timestamps = new TimestampMemory(o.tables.clockSkewSeconds * 1000);
  const nsFor = namespaces(o);
  const forwarding = {
    open: (path: string, method: string, headers: string[]) =>
      request({
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method,
        path,
        headers,
        agent,
        setHost: !headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host'),
      }),
    basePath: target.pathname.replace(/\/+$/, ''),
    target: o.target,
    host: (sent: string | undefined) => (o.rewriteHost ? target.host : (sent ?? target.host)),
    rewriteHost: o.rewriteHost ?? false,
    maxCheckBytes,
    budget,
    timeoutMs: o.targetTimeoutMs ?? 120_000,
  };
  const inspecting = new Set<Promise<void>>();
  const inflight = new Set<Promise<void>>();
  const x = {
    tables: o.tables,
    checker,
    log,
    secrets: o.secrets,
    knownSecrets: o.knownSecrets ?? [],
    record: o.record,
    maxCheckBytes,
    onFinding: o.onFinding ?? (() => undefined),
  };

  const server = http.createServer(
    { headersTimeout: 30_000, keepAliveTimeout: 5_000 },
    (req, res) => {
      if (!connections.begin(req, res)) return;
      const started = performance.now();
      const at = Date.now();
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const route = routeOf(o.tables.wire, method, url, req.headers['content-type']);
      const host = forwarding.host(req.headers.host);
      const requestContext: RequestContext = {
        tables: o.tables,
        level,
        namespaces: nsFor(host),
        secrets: o.secrets,
        timestamps,
      };
      let ended: () => void = () => undefined;
      const exchange = new Promise<void>((resolve) => (ended = resolve));
      inflight.add(exchange);
      forward(forwarding, req, res, (f: Forwarded) => {
        const release = () => (f.request.release(), f.response?.body.release());
        connections.end(req.socket);
        ended();
        inflight.delete(exchange);
        if (f.clientGone) {
          log.unchecked('the client went away before its answer was out');
          return release();
        }
        // Checks slower than the traffic would pile up with their bodies: past the bound, skip.
        if (inspecting.size >= maxPendingChecks) {
          log.exchange(routeName(route));
          log.unchecked(CHECKS_BEHIND);
          o.record?.skipped();
          return release();
        }
        const durationMs = performance.now() - started;
        // After the answer went out, on a later turn: forwarding first, checking after.
        const p = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() =>
            inspect(x, {
              route,
              method,
              url,
              headers: req.headers as Record<string, string | undefined>,
              rawHeaders: req.rawHeaders,
              at,
              durationMs,
              forwarded: f,
              requestContext,
            }),
          )
          .catch((e: Error) => log.unchecked(`the proxy failed checking: ${e.message}`))
          .finally(() => (release(), inspecting.delete(p)));
        inspecting.add(p);
      });
    },
  );
  // The service's own sharing: no client holds more than its share, idle ones make room first.
  const connections = shareConnections(server, {
    maxConnections,
    maxConnectionsPerClient: o.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
    reservedPath: undefined,
    reservedConnections: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const report = () =>
    log.report({
      target: o.target,
      listening: url,
      level,
      recording: o.record
        ? { file: o.record.file, written: o.record.written, notRecorded: o.record.dropped }
        : null,
    });
  let closing: Promise<ProxyReport> | undefined;
  return {
    url,
    level,
    report,
    idle: async () => {
      await Promise.all(inflight);
      await Promise.all(inspecting);
    },
    close: (graceMs = 5_000) =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        await Promise.all(inflight);
        clearTimeout(cut);
        server.closeAllConnections();
        await closed;
        await Promise.all(inspecting);
        agent.destroy();
        await o.record?.close();
        return report();
      })()),
  };
}
