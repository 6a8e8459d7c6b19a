// /healthz: what a load balancer or an operator asks before sending traffic. 200 only when the
// database answers and every lane has a running worker (a lane without one answers its requests
// Unavailable); 503 otherwise. The caller learns the status of each part and nothing more: why a
// part failed (the driver's error, with the database's address in it) goes to the log line of the
// request it failed, never to whoever asked.
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

type Status = 'ok' | 'unavailable';

export interface HealthAnswer {
  readonly response: ServiceResponse;
  /** Why a part is unavailable, for the operator's log line only. */
  readonly cause?: string;
}

const status = (ok: boolean): Status => (ok ? 'ok' : 'unavailable');

export function healthCheck(s: HealthSources): () => Promise<HealthAnswer> {
  return async () => {
    const h = await s.health();
    const lanes = s.running?.();
    const idle = lanes ? LANES.filter((lane) => lanes[lane] === 0) : [];
    const ok = h.ok && idle.length === 0;
    const causes = [
      ...(h.ok ? [] : [`database: ${h.detail ?? 'unavailable'}`]),
      ...(idle.length > 0 ? [`no running worker in lane ${idle.join(', ')}`] : []),
    ];
    const body = {
      status: status(ok),
      database: status(h.ok),
      ...(lanes
        ? { workers: Object.fromEntries(LANES.map((lane) => [lane, status(lanes[lane] > 0)])) }
        : {}),
    };
    return {
      response: {
        status: ok ? 200 : 503,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      ...(causes.length > 0 ? { cause: causes.join('; ') } : {}),
    };
  };
}

/**
 * GET /healthz: the check's answer, and a log line for every answer that is not 200, with the
 * cause. Answers of 200 are not logged: load balancers ask every few seconds.
 */
export function healthRoute(
  check: () => Promise<HealthAnswer>,
  log: (line: string) => void,
): () => Promise<ServiceResponse> {
  return async () => {
    const started = performance.now();
    const { response, cause } = await check();
    if (response.status !== 200)
      log(
        JSON.stringify({
          time: new Date().toISOString(),
          page: 'healthz',
          status: response.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          error: cause,
        }),
      );
    return response;
  };
}
