// Finding the binding of a request: SOAP bindings by path and request media type, HTTP bindings by
// path and method, all from the service's WireSpec; the WSDL at GET {endpoint}?wsdl.
import { cutInput, quoteInput } from '../xml/index.js';
import { EngineFault } from './faults.js';
import { handleHttp, handleSoap, type Log, type Pipeline } from './server-bindings.js';
import type { ServiceRequest, ServiceResponse } from './server.js';
import {
  type BindingDef,
  type WireSpec,
  fill,
  requestMediaType,
  soapBindingsByPath,
} from './wire.js';

/** Where each binding is served: SOAP bindings by path and media type, HTTP ones by path and method. */
export function routes(wire: WireSpec): Pick<Pipeline, 'soapByPath' | 'httpRoutes'> {
  const at = (b: BindingDef) => fill(b.path, { endpoint: wire.endpointPath });
  const httpRoutes: Pipeline['httpRoutes'][number][] = [];
  for (const b of wire.bindings) {
    const path = at(b);
    if (b.kind === 'soap') continue;
    const [prefix = '', suffix = ''] = path.split('{Operation}');
    let r = httpRoutes.find((x) => x.prefix === prefix && x.suffix === suffix);
    if (!r) httpRoutes.push((r = { prefix, suffix, byMethod: new Map() }));
    r.byMethod.set(b.method, b);
  }
  return { soapByPath: soapBindingsByPath(wire), httpRoutes };
}

export async function route(
  p: Pipeline,
  req: ServiceRequest,
  url: URL,
  ns: string,
  host: string,
  log: Log,
): Promise<ServiceResponse> {
  const { wire } = p.options;
  const endpoint = wire.endpointPath;
  if (url.pathname === endpoint && req.method === 'GET') {
    if ([...url.searchParams.keys()].some((k) => k.toLowerCase() === 'wsdl')) {
      log.page = 'wsdl';
      return {
        status: 200,
        headers: { 'content-type': wire.wsdlContentType },
        body: p.options.wsdl(`${baseUrl(p, host)}${endpoint}`, ns),
      };
    }
    const base = baseUrl(p, host);
    const help = await p.help?.(url, req.headers.accept, {
      baseUrl: base,
      host: new URL(base).host,
      namespace: ns,
    });
    if (help) {
      log.page = 'help';
      return help;
    }
  }
  const soapHere = p.soapByPath.get(url.pathname);
  if (soapHere) {
    if (req.method !== 'POST')
      throw new EngineFault(
        'request',
        `use POST for SOAP, GET ${endpoint}?wsdl for the WSDL, or the HTTP bindings' paths`,
        405,
      );
    return soap(p, req, soapHere, ns, log);
  }
  for (const r of p.httpRoutes) {
    const { pathname } = url;
    if (!pathname.startsWith(r.prefix) || !pathname.endsWith(r.suffix)) continue;
    if (pathname.length < r.prefix.length + r.suffix.length) continue;
    const binding = r.byMethod.get(req.method);
    log.binding = binding ?? r.byMethod.values().next().value;
    // Operation names are plain ASCII: no decoding.
    const name = pathname.slice(r.prefix.length, pathname.length - r.suffix.length);
    const op = p.ops.get(name);
    if (!op) throw new EngineFault('request', `unknown operation ${quoteInput(name)}`, 404);
    log.operation = op.name;
    if (!binding)
      throw new EngineFault('request', `use ${[...r.byMethod.keys()].join(' or ')}`, 405);
    return handleHttp(p, req, op, binding, url, ns, log);
  }
  throw new EngineFault(
    'request',
    `no service at ${cutInput(url.pathname)}; the endpoint is ${endpoint}`,
    404,
  );
}

/** {base_url} as clients reach this server: the configured public one, else http://{Host}. */
const baseUrl = (p: Pipeline, host: string): string =>
  p.options.publicBaseUrl?.replace(/\/+$/, '') ?? `http://${host}`;

/** A POST to a SOAP path: the binding is the one whose request media type was sent. */
export function soap(
  p: Pipeline,
  req: ServiceRequest,
  byType: ReadonlyMap<string, BindingDef>,
  ns: string,
  log: Log,
): Promise<ServiceResponse> {
  const { type, utf8 } = requestMediaType(p.options.wire, req.headers['content-type']);
  const binding = byType.get(type);
  log.binding = binding ?? byType.values().next().value;
  if (!binding) {
    const accepted = [...byType].map(([t, b]) => `${t} (${b.title})`).join(' or ');
    throw new EngineFault(
      'request',
      `content type must be ${accepted}, got ${type ? quoteInput(type) : '"none"'}`,
      415,
    );
  }
  if (!utf8) throw new EngineFault('request', 'the only accepted charset is utf-8', 415);
  return handleSoap(p, req, binding, ns, log);
}
