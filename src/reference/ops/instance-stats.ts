// What each instance of the service (a worker thread, or the request loop with --workers 0) tells
// /metrics without a message per change: shared memory that the instances write and the request
// loop reads when scraped (as the test controls' table, controls.ts).
//   pools   one slot per instance: its PostgreSQL pool's connections open and idle, the calls
//           waiting for one, and its size. An instance takes a free slot at its pool's first
//           change; the slot is freed when its thread exits (a dead thread holds no connection).
//   replay  counters every instance adds to: pruning passes of the replay record, entries pruned.

/** What a pool holds now (pg-pool's totalCount, idleCount, waitingCount, and its max). */
export interface PoolCounts {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

/** What a replay store tells about its upkeep. */
export interface ReplayUpkeep {
  /** A pruning pass that removed `entries` expired entries. */
  pruned(entries: number): void;
}

/** The buffers, created on the request loop and passed to every instance (ServiceConfig.stats). */
export interface InstanceStatsBuffers {
  /** PostgreSQL only. */
  readonly pools?: SharedArrayBuffer;
  readonly replay: SharedArrayBuffer;
}

// A pool slot: Int32 fields. OWNER is the instance's worker id (INLINE: the request loop), 0 free.
const OWNER = 0;
const TOTAL = 1;
const IDLE = 2;
const WAITING = 3;
const MAX = 4;
const FIELDS = 5;
/** The owner of the request loop's own instance (worker ids start at 1). */
export const INLINE = -1;

// The replay counters: BigInt64 (entries pruned may pass 2^31 in a long run).
const PRUNES = 0;
const PRUNED = 1;
const COUNTERS = 2;

/** Buffers for `instances` instances at once (threads of both lanes, or the request loop). */
export function instanceStatsBuffers(instances: number, postgres: boolean): InstanceStatsBuffers {
  return {
    ...(postgres
      ? { pools: new SharedArrayBuffer(instances * FIELDS * Int32Array.BYTES_PER_ELEMENT) }
      : {}),
    replay: new SharedArrayBuffer(COUNTERS * BigInt64Array.BYTES_PER_ELEMENT),
  };
}

/** An instance's side of its pool's slot: taken at the first report, written at every one. */
export function poolReporter(buffer: SharedArrayBuffer, owner: number): (c: PoolCounts) => void {
  const t = new Int32Array(buffer);
  let at = -1;
  return (c) => {
    for (let s = 0; at < 0 && s * FIELDS < t.length; s++)
      if (Atomics.compareExchange(t, s * FIELDS + OWNER, 0, owner) === 0) at = s * FIELDS;
    if (at < 0) return; // cannot happen: a slot per live instance
    Atomics.store(t, at + TOTAL, c.total);
    Atomics.store(t, at + IDLE, c.idle);
    Atomics.store(t, at + WAITING, c.waiting);
    Atomics.store(t, at + MAX, c.max);
  };
}

/** Frees the slot of an instance whose thread exited. */
export function freePoolSlot(buffer: SharedArrayBuffer, owner: number): void {
  const t = new Int32Array(buffer);
  for (let at = 0; at < t.length; at += FIELDS)
    if (Atomics.load(t, at + OWNER) === owner) {
      for (const f of [TOTAL, IDLE, WAITING, MAX]) Atomics.store(t, at + f, 0);
      Atomics.store(t, at + OWNER, 0);
    }
}

/** The pools of every live instance, summed. */
export function sumPools(buffer: SharedArrayBuffer): PoolCounts {
  const t = new Int32Array(buffer);
  const sum = { total: 0, idle: 0, waiting: 0, max: 0 };
  for (let at = 0; at < t.length; at += FIELDS) {
    if (Atomics.load(t, at + OWNER) === 0) continue;
    sum.total += Atomics.load(t, at + TOTAL);
    sum.idle += Atomics.load(t, at + IDLE);
    sum.waiting += Atomics.load(t, at + WAITING);
    sum.max += Atomics.load(t, at + MAX);
  }
  return sum;
}

/** An instance's side of the replay counters. */
export function replayUpkeep(buffer: SharedArrayBuffer): ReplayUpkeep {
  const c = new BigInt64Array(buffer);
  return {
    pruned(entries) {
      Atomics.add(c, PRUNES, 1n);
      Atomics.add(c, PRUNED, BigInt(entries));
    },
  };
}

export interface ReplayTotals {
  readonly prunes: number;
  readonly pruned: number;
}

/** The replay counters of every instance since start. */
export function replayTotals(buffer: SharedArrayBuffer): ReplayTotals {
  const c = new BigInt64Array(buffer);
  const at = (i: number) => Number(Atomics.load(c, i));
  return {
    prunes: at(PRUNES),
    pruned: at(PRUNED),
  };
}

/** What a store reports to, for the metrics. */
export interface StoreObservers {
  readonly pool?: (counts: PoolCounts) => void;
  readonly replay?: ReplayUpkeep;
}

/** The observers of the instance `owner` (a worker id, or INLINE) on the shared buffers. */
export function storeObservers(b: InstanceStatsBuffers, owner: number): StoreObservers {
  return {
    ...(b.pools ? { pool: poolReporter(b.pools, owner) } : {}),
    replay: replayUpkeep(b.replay),
  };
}
