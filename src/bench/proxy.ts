// What evgen proxy adds to a call: GetEventDetails7 from the generated client, one call in flight,
// to the reference service directly and through the proxy (in a process of its own, as the
// command runs), in alternating rounds; each side's p50 over all its calls, and the median of the
// rounds' own p50 differences (rounds next to each other share the machine's conditions).
import { EventServiceClient } from '@evgen/event-management/client';
import { startServer, type ServerInfo } from './children.js';
import type { Key } from './load.js';
import { alternate, median } from './measure.js';

export interface LatencyFigures {
  readonly calls: number;
  readonly p50: number;
  readonly p99: number;
}

export interface ProxyFigures {
  readonly direct: LatencyFigures;
  readonly proxied: LatencyFigures;
  /** Median over the rounds of proxied p50 minus direct p50, ms. */
  readonly addedP50: number;
  /** Each round's difference, in order. */
  readonly rounds: readonly number[];
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Each call's time in ms, calling one at a time for `seconds`. */
async function latencies(call: () => Promise<unknown>, seconds: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}

const figures = (samples: readonly number[]): LatencyFigures => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { calls: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};

export async function benchProxy(
  server: ServerInfo,
  key: Key,
  seconds: number,
  rounds: number,
): Promise<ProxyFigures> {
  const proxy = await startServer({ type: 'start', kind: 'proxy', target: server.url });
  try {
    const { eventId } = server;
    const client = (baseUrl: string) => new EventServiceClient({ baseUrl, ...key });
    const direct = client(server.url);
    const proxied = client(proxy.info.url);
    const viaDirect = () => direct.getEventDetails7({ eventId });
    const viaProxy = () => proxied.getEventDetails7({ eventId });
    // Warm-up, unmeasured: JIT, connections, the proxy's first checks.
    await latencies(viaDirect, 0.5);
    await latencies(viaProxy, 0.5);
    const perRound = seconds / rounds;
    const [as, bs] = await alternate(
      rounds,
      () => latencies(viaDirect, perRound),
      () => latencies(viaProxy, perRound),
    );
    const diffs = as.map((a, i) => figures(bs[i]!).p50 - figures(a).p50);
    return {
      direct: figures(as.flat()),
      proxied: figures(bs.flat()),
      addedP50: median(diffs),
      rounds: diffs,
    };
  } finally {
    await proxy.stop();
  }
}
