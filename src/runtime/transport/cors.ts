// CORS for browser clients on other origins. A preflight (OPTIONS with Access-Control-Request-
// Method) to the endpoint is answered 204 for an allowed origin, naming the methods and the
// headers the bindings use; every other answer to an allowed origin names that origin. The
// allowed origin is always the request's own (with Vary: Origin), never `*`, and credentials
// mode is never allowed: the interface's credentials are signed headers, not cookies.
import type { AuthScheme } from './auth.js';
import type { ServiceHandler, ServiceResponse } from './server.js';
import type { WireSpec } from './wire.js';

export interface CorsOptions {
  /** Origins such as `https://app.example.com`; `*` allows any origin. */
  readonly origins: readonly string[];
  /** How long a browser may cache a preflight answer; default 600 s. */
  readonly maxAgeSeconds?: number;
}

const ORIGIN = /^https?:\/\/([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/** The origins as browsers send them (lower case, no trailing slash); a bad entry is an error. */
export function corsOrigins(origins: readonly string[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const raw of origins) {
    const o = raw.trim().replace(/\/+$/, '').toLowerCase();
    if (o !== '*' && !ORIGIN.test(o))
      throw new TypeError(
        `CORS origin "${raw}" is not an origin: expected scheme://host[:port] (e.g. https://app.example.com) or *`,
      );
    out.add(o);
  }
  return out;
}

export function withCors(
  handler: ServiceHandler,
  options: CorsOptions,
  auth: AuthScheme,
  wire: WireSpec,
): ServiceHandler {
  const { endpointPath, faults } = wire;
  const allowed = corsOrigins(options.origins);
  const anyOrigin = allowed.has('*');
  const h = auth.httpHeaders;
  const preflight = {
    'access-control-allow-methods': [...new Set(wire.bindings.map((b) => b.method))]
      .sort()
      .join(', '),
    'access-control-allow-headers': [
      h.apiKey,
      h.timestamp,
      h.signature,
      h.operation,
      'SOAPAction',
      'Content-Type',
    ].join(', '),
    'access-control-max-age': String(options.maxAgeSeconds ?? 600),
  };
  const forEndpoint = (url: string) =>
    url === endpointPath ||
    url.startsWith(`${endpointPath}/`) ||
    url.startsWith(`${endpointPath}?`);
  return async (req): Promise<ServiceResponse> => {
    const origin = req.headers.origin;
    if (origin === undefined) return handler(req);
    const ok = anyOrigin || allowed.has(origin.toLowerCase());
    if (
      req.method === 'OPTIONS' &&
      req.headers['access-control-request-method'] !== undefined &&
      forEndpoint(req.url)
    ) {
      if (!ok)
        return {
          status: 403,
          // The HTTP bindings' fault form, with the code the spec gives a refused request.
          headers: { 'content-type': faults.httpContentType, vary: 'Origin' },
          body: `${faults.raisedFor.request}: origin ${origin} is not allowed\n`,
        };
      return {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          ...preflight,
          vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        },
        body: '',
      };
    }
    const res = await handler(req);
    const vary = res.headers.vary ? `${res.headers.vary}, Origin` : 'Origin';
    return {
      ...res,
      headers: ok
        ? { ...res.headers, 'access-control-allow-origin': origin, vary }
        : { ...res.headers, vary },
    };
  };
}
