// The test controls on the admin listener (only with --test-controls and an admin token):
//   GET    /controls          what is armed
//   POST   /controls/faults   arm: {"operation", "fault"?, "delayMs"?, "times"?, "apiKey"?}
//   DELETE /controls          clear everything armed
//   POST   /controls/reset    the database back to its state at start (on PostgreSQL, for every node)
// Every one needs `Authorization: Bearer <token>`; without it, 401 and nothing changes.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdminAnswer, AdminRequest, AdminRoute } from './admin.js';
import { ControlError, checkArming, type ControlTable } from './controls.js';
import type { DatabaseReset } from './reset.js';

/** The shortest admin token accepted: guessing one must be out of reach. */
export const MIN_ADMIN_TOKEN = 16;

const digest = (s: string) => createHash('sha256').update(s).digest();

export interface ControlsRouteOptions {
  readonly token: string;
  readonly table: ControlTable;
  /** Absent where the database cannot be reset (--read-only): 501. */
  readonly reset?: DatabaseReset;
  /** One log line per change, for whoever reads the service's log. */
  readonly log: (line: string) => void;
}

const error = (status: number, message: string): AdminAnswer => ({
  status,
  body: { error: message },
});

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new ControlError('the body must be a JSON object');
  }
}

export function controlsRoute(o: ControlsRouteOptions): AdminRoute {
  const want = digest(o.token);
  const authorized = (req: AdminRequest) => {
    const sent = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return sent !== undefined && timingSafeEqual(digest(sent), want);
  };
  const event = (event: string, extra: object = {}) =>
    o.log(JSON.stringify({ time: new Date().toISOString(), event, ...extra }));
  const routes: Record<string, (req: AdminRequest) => AdminAnswer | Promise<AdminAnswer>> = {
    'GET /controls': () => ({ status: 200, body: { armed: o.table.list() } }),
    'DELETE /controls': () => {
      const cleared = o.table.list().length;
      o.table.clear();
      event('test controls cleared', { cleared });
      return { status: 200, body: { cleared } };
    },
    'POST /controls/faults': (req) => {
      const given = parse(req.body);
      if (typeof given !== 'object' || given === null || Array.isArray(given))
        throw new ControlError('the body must be a JSON object');
      const armed = o.table.arm(checkArming(given));
      const { apiKey: _key, ...logged } = armed;
      event('test control armed', logged);
      return { status: 201, body: { armed } };
    },
    'POST /controls/reset': async () => {
      if (!o.reset) return error(501, 'a --read-only service cannot reset its database');
      const done = await o.reset.reset();
      event('database reset', done);
      return { status: 200, body: { reset: true, ...done } };
    },
  };
  return async (req) => {
    if (req.path !== '/controls' && !req.path.startsWith('/controls/')) return undefined;
    if (!authorized(req))
      return {
        ...error(401, 'an admin token is needed: Authorization: Bearer <token>'),
        headers: { 'www-authenticate': 'Bearer' },
      };
    const route = routes[`${req.method} ${req.path}`];
    if (!route) return error(404, `no control at ${req.method} ${req.path.slice(0, 64)}`);
    try {
      return await route(req);
    } catch (e) {
      if (e instanceof ControlError) return error(400, e.message);
      throw e;
    }
  };
}
