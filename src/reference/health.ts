// /healthz: what a load balancer or an operator asks before sending traffic. 200 only when the
// database answers and every lane has a running worker (a lane without one would hold its requests
// in its queue until they are refused); 503 otherwise, saying which part failed.
import type { ServiceResponse } from '@evgen/runtime';
import { LANES, type Lane } from './lanes.js';
import type { StoreHealth } from './store/store.js';

export interface HealthSources {
  readonly health: () => Promise<StoreHealth>;
  /** Worker threads per lane (--workers); 0: requests run on the request loop. */
  readonly workers: number;
  /** Threads started and not dead, per lane; absent when requests run on the request loop. */
  readonly running?: () => Readonly<Record<Lane, number>>;
}

export function healthCheck(s: HealthSources): () => Promise<ServiceResponse> {
  return async () => {
    const h = await s.health();
    const database = h.ok
      ? { ok: true, schemaVersion: h.schemaVersion }
      : { ok: false, error: h.detail ?? 'unavailable' };
    const lanes = s.running?.();
    const idle = lanes ? LANES.filter((lane) => lanes[lane] === 0) : [];
    const ok = database.ok && idle.length === 0;
    return {
      status: ok ? 200 : 503,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        status: ok ? 'ok' : 'unavailable',
        database,
        workers: {
          configured: s.workers,
          running: lanes ? LANES.reduce((n, lane) => n + lanes[lane], 0) : 0,
          ...(lanes ? { lanes } : {}),
          ...(idle.length > 0 ? { error: `no running worker in lane ${idle.join(', ')}` } : {}),
        },
      }),
    };
  };
}
