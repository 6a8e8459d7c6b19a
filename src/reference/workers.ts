// Worker threads of the reference service, in two lanes (lanes.ts): `workers` threads for quick
// calls and as many for bulk ones, each with its own database connection and its own instance of
// the service. The request loop (node:http) only parses requests and writes answers, so no request
// waits for another's database work or encoding. A thread takes one request at a time; requests
// wait in their lane's queue (bounded: past it, Unavailable). A thread that dies is logged and
// replaced; the request it held is answered Internal. close() lets every request finish, then stops
// them.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { ServiceRequest, ServiceResponse } from '@evgen/runtime';
import { fault, unavailable } from './faults.js';
import { LANES, laneOf, type Lane } from './lanes.js';
import { detach, ownsBuffer } from './detach.js';
import { recordedRefusal, type Taken } from './refused.js';
import type { ServiceConfig } from './service.js';
import type { FromWorker, ToWorker, WorkerData } from './worker.js';
import type { RequestRecord } from './ops/logger.js';

const ENTRY = new URL('./worker-entry.js', import.meta.url);
/** Requests waiting per lane before new ones are refused (Unavailable: 503, Retry-After). */
export const MAX_QUEUED = 1_024;
/** Heap of one worker: a request that needs more kills its worker (replaced), not the server. */
export const WORKER_HEAP_MB = 1_024;
/**
 * Young generation of a bulk-lane worker (V8 gives a worker 48 MB). A page allocates hundreds of
 * kilobytes of rows and strings: with the default, two bulk workers kept V8's collector threads
 * busy for a large share of the cores, and pages were served more slowly. Smaller sizes trade
 * small pages against large ones; the quick lane keeps the default. (Measurements: git log.)
 */
export const BULK_YOUNG_GENERATION_MB = 128;
/** The heap limits of a worker thread of `lane`. */
export const laneLimits = (lane: Lane): ResourceLimits => ({
  maxOldGenerationSizeMb: WORKER_HEAP_MB,
  ...(lane === 'bulk' ? { maxYoungGenerationSizeMb: BULK_YOUNG_GENERATION_MB } : {}),
});
/** Replacements that may fail to start in a row before a lane stops replacing. */
const MAX_FAILED_STARTS = 5;

/** A request handed to the pool (`since`: when), and how to answer it. */
interface Pending extends Taken {
  readonly resolve: (res: ServiceResponse) => void;
}
interface Thread {
  readonly id: number;
  readonly lane: Lane;
  readonly worker: Worker;
  ready: boolean;
  current: Pending | undefined;
  /** The thread's id in the kernel, once ready (Linux). */
  tid?: number;
}

export interface PoolOptions {
  readonly config: ServiceConfig;
  readonly workers: number;
  /** Events of the pool (worker started, exited...) as JSON lines. */
  readonly log: (line: string) => void;
  /** The module a thread runs, from this folder without extension (worker-entry.js); default worker. */
  readonly module?: string;
  /** The record of each request a worker served, and of each the pool refused. */
  readonly onRequest: (record: RequestRecord) => void;
  /** A thread that exited (asked or not), by its id: what it held is gone. */
  readonly onExit?: (id: number) => void;
}

/** No worker of a lane became ready at start-up: the service cannot serve that lane's calls. */
export class WorkerStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerStartError';
  }
}

/** How long close() lets requests in flight or waiting finish before it stops the threads. */
export const STOP_GRACE_MS = 30_000;

/**
 * Marks an answer whose body buffer a worker moved here (nobody else holds it) until it is freed:
 * a property of the answer, not a WeakSet, whose short-lived entries (one per answer) cost every
 * young-generation collection (as request-id.ts found for a WeakMap).
 */
const OWNED = Symbol('owned body');
interface Owned extends ServiceResponse {
  [OWNED]?: boolean;
}

export class WorkerPool {
  readonly #threads = new Set<Thread>();
  readonly #queues: Record<Lane, Pending[]> = { quick: [], bulk: [] };
  readonly #failedStarts: Record<Lane, number> = { quick: 0, bulk: 0 };
  /** Threads each lane tried to start, and why the last one that failed did. */
  readonly #tried: Record<Lane, number> = { quick: 0, bulk: 0 };
  readonly #lastFailure: Record<Lane, string> = { quick: '', bulk: '' };
  /** Lanes that stopped replacing workers (MAX_FAILED_STARTS in a row failed). */
  readonly #gaveUp = new Set<Lane>();
  /** Called when a lane's start settles: every worker ready, or the lane gave up. */
  readonly #settled: Record<Lane, (() => void)[]> = { quick: [], bulk: [] };
  /** Threads that stopped unasked, per lane (metrics). */
  readonly #exits: Record<Lane, number> = { quick: 0, bulk: 0 };
  #nextId = 1;
  #nextRequest = 1;
  #closing = false;
  #idle: (() => void) | undefined;

  private constructor(private readonly o: PoolOptions) {}

  /**
   * Starts `workers` threads per lane and resolves once every lane has them ready, or has at
   * least one ready after the others failed; rejects (WorkerStartError, the threads stopped) when
   * no worker of a lane became ready.
   */
  static async start(o: PoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(o);
    for (const lane of LANES) for (let i = 0; i < o.workers; i++) pool.#spawn(lane);
    await Promise.all(LANES.map((lane) => pool.#settle(lane)));
    const dead = LANES.filter((lane) => pool.running[lane] === 0);
    if (dead.length === 0) return pool;
    await pool.close();
    const lane = dead[0]!;
    throw new WorkerStartError(
      `no worker of lane ${lane} became ready (${pool.#tried[lane]} tried): ${pool.#lastFailure[lane]}`,
    );
  }

  #settle(lane: Lane): Promise<void> {
    return new Promise((settled) => {
      this.#settled[lane].push(settled);
      this.#laneChanged(lane);
    });
  }

  /** Threads started and not dead, per lane. */
  get running(): Record<Lane, number> {
    const n: Record<Lane, number> = { quick: 0, bulk: 0 };
    for (const t of this.#threads) if (t.ready) n[t.lane]++;
    return n;
  }

  /** Per lane: requests waiting, threads running, and threads that stopped unasked (metrics). */
  get laneStats(): Record<Lane, { queued: number; running: number; restarts: number }> {
    const running = this.running;
    const of = (lane: Lane) => ({
      queued: this.#queues[lane].length,
      running: running[lane],
      restarts: this.#exits[lane],
    });
    return { quick: of('quick'), bulk: of('bulk') };
  }

  /** The live threads: id, kernel thread id (Linux), lane and heap limits (for health and operators). */
  get threads(): {
    id: number;
    tid?: number;
    lane: Lane;
    busy: boolean;
    resourceLimits: ResourceLimits;
  }[] {
    return [...this.#threads]
      .filter((t) => t.ready)
      .map((t) => ({
        id: t.id,
        ...(t.tid === undefined ? {} : { tid: t.tid }),
        lane: t.lane,
        busy: t.current !== undefined,
        resourceLimits: t.worker.resourceLimits ?? {},
      }));
  }

  /** Stops one thread at once, as a crash would: it is logged and replaced like one. */
  async terminate(id: number): Promise<void> {
    for (const t of this.#threads) if (t.id === id) await t.worker.terminate();
  }

  /** Serves `req` on a worker of `lane` (its own lane unless the caller has routed it). */
  handle(req: ServiceRequest, lane: Lane = laneOf(req)): Promise<ServiceResponse> {
    const since = performance.now();
    const queue = this.#queues[lane];
    const why = this.#closing
      ? 'stopping'
      : this.#dead(lane)
        ? noWorker(lane)
        : queue.length >= MAX_QUEUED
          ? `busy: ${MAX_QUEUED} requests wait in lane ${lane}`
          : undefined;
    if (why !== undefined) return Promise.resolve(this.#refuse(req, since, lane, why));
    return new Promise((resolve) => {
      queue.push({ req, since, resolve });
      this.#dispatch(lane);
    });
  }

  /**
   * Unavailable, answered on the request loop, with the cause of a lane's failed starts in its
   * record; the answer says only why.
   */
  #refuse(req: ServiceRequest, since: number, lane: Lane, why: string): ServiceResponse {
    const cause = why === noWorker(lane) ? `: ${this.#lastFailure[lane]}` : '';
    return recordedRefusal({ req, since }, unavailable(why), `${why}${cause}`, this.o.onRequest);
  }

  #event(event: string, t: Thread, extra: object = {}): void {
    this.o.log(
      JSON.stringify({
        time: new Date().toISOString(),
        event,
        worker: t.id,
        lane: t.lane,
        ...extra,
      }),
    );
  }

  #spawn(lane: Lane): void {
    const data: WorkerData = {
      config: this.o.config,
      id: this.#nextId++,
      lane,
      ...(this.o.module ? { module: this.o.module } : {}),
    };
    const worker = new Worker(ENTRY, {
      workerData: data,
      resourceLimits: laneLimits(lane),
      stdout: false,
      stderr: false,
    });
    const t: Thread = { id: data.id, lane, worker, ready: false, current: undefined };
    this.#threads.add(t);
    this.#tried[lane]++;
    let failure: string | undefined;
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'request') this.o.onRequest(m.record);
      else if (m.type === 'ready') {
        t.ready = true;
        if (m.tid !== undefined) t.tid = m.tid;
        this.#failedStarts[lane] = 0;
        this.#event('worker started', t);
        this.#dispatch(lane);
        this.#laneChanged(lane);
      } else this.#answered(t, m.res);
    });
    worker.on('error', (e) => {
      failure = e.message;
      this.#event('worker error', t, { error: e.message });
    });
    worker.on('exit', (code) => {
      this.#threads.delete(t);
      this.o.onExit?.(t.id);
      const wasReady = t.ready;
      t.ready = false;
      const held = t.current;
      if (held)
        held.resolve(
          recordedRefusal(
            held,
            stopped(),
            `the worker serving it exited with code ${code}`,
            this.o.onRequest,
          ),
        );
      t.current = undefined;
      if (!this.#closing) {
        this.#event('worker exited', t, { code });
        this.#exits[lane]++;
        if (!wasReady) {
          this.#failedStarts[lane]++;
          this.#lastFailure[lane] = failure ?? `the worker exited with code ${code}`;
        }
        if (this.#failedStarts[lane] < MAX_FAILED_STARTS) this.#spawn(lane);
        else if (!this.#gaveUp.has(lane)) {
          this.#gaveUp.add(lane);
          this.#event('worker not replaced: it failed to start repeatedly', t, {
            error: this.#lastFailure[lane],
          });
        }
      }
      this.#laneChanged(lane);
    });
  }

  /** Whether no thread of `lane` lives (ready or starting) and none will be started. */
  #dead(lane: Lane): boolean {
    if (!this.#gaveUp.has(lane) && !this.#closing) return false;
    for (const t of this.#threads) if (t.lane === lane) return false;
    return true;
  }

  /**
   * After a thread of `lane` became ready or exited: settles a start waiting for the lane, and
   * answers the requests waiting in a lane no thread will ever serve, at once.
   */
  #laneChanged(lane: Lane): void {
    if (this.running[lane] >= this.o.workers || this.#gaveUp.has(lane) || this.#closing)
      for (const settled of this.#settled[lane].splice(0)) settled();
    if (this.#dead(lane)) {
      const why = this.#closing ? 'stopping' : noWorker(lane);
      for (const p of this.#queues[lane].splice(0))
        p.resolve(this.#refuse(p.req, p.since, lane, why));
    }
    this.#checkIdle();
  }

  /**
   * Frees the body of an answer this pool gave, once it is written (see detach.ts); any other
   * answer, and one already released, is left alone. The body reads as empty afterwards.
   */
  release(answer: Owned): void {
    if (answer[OWNED] !== true || typeof answer.body === 'string') return;
    answer[OWNED] = false;
    if (ownsBuffer(answer.body)) detach(answer.body.buffer as ArrayBuffer);
  }

  #answered(t: Thread, res: Owned): void {
    if (typeof res.body !== 'string') res[OWNED] = true;
    const p = t.current;
    t.current = undefined;
    p?.resolve(res);
    this.#dispatch(t.lane);
    this.#checkIdle();
  }

  #dispatch(lane: Lane): void {
    const queue = this.#queues[lane];
    for (const t of this.#threads) {
      if (queue.length === 0) return;
      if (t.lane !== lane || !t.ready || t.current) continue;
      const p = queue.shift()!;
      t.current = p;
      // The body is copied into a buffer of its own and moved: node:http's may share a pool.
      const body = p.req.body.slice();
      const msg: ToWorker = { type: 'request', id: this.#nextRequest++, req: { ...p.req, body } };
      t.worker.postMessage(msg, [body.buffer]);
    }
  }

  #checkIdle(): void {
    if (!this.#idle) return;
    for (const t of this.#threads) if (t.current) return;
    if (LANES.some((l) => this.#queues[l].length > 0)) return;
    this.#idle();
  }

  /**
   * Lets every request in flight or waiting finish (those of a lane without a thread are answered
   * Unavailable), then stops the threads, each closing its database. Past STOP_GRACE_MS a thread
   * still busy or starting is stopped at once (its request answered Internal).
   */
  async close(): Promise<void> {
    this.#closing = true;
    const grace = new Promise<void>((late) => setTimeout(late, STOP_GRACE_MS).unref());
    const idle = new Promise<void>((done) => {
      this.#idle = done;
      for (const lane of LANES) this.#laneChanged(lane);
    });
    await Promise.race([idle, grace]);
    await Promise.all(
      [...this.#threads].map(async (t) => {
        const gone = new Promise<void>((exited) => t.worker.once('exit', () => exited()));
        t.worker.postMessage({ type: 'close' } satisfies ToWorker);
        const late = await Promise.race([gone.then(() => false), grace.then(() => true)]);
        if (late) await t.worker.terminate();
      }),
    );
  }
}

const noWorker = (lane: Lane) => `no worker can be started in lane ${lane}`;
const stopped = () => fault('Internal', 'the worker serving this request stopped');
