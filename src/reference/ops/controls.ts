// Test controls (--test-controls): an integrator's CI arms "the next N calls of an operation
// (optionally only with one API key) answer this fault code, or wait this long", to test its own
// retry and error paths. The armed table is a SharedArrayBuffer that every worker thread shares
// with the request loop, so arming takes effect at once everywhere and N calls are taken exactly
// once each, whichever worker serves them (Atomics). It holds at most MAX_ARMED entries; operations
// and fault codes are indexes into the spec's tables, so nothing else can be armed.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceFault, type RequestContext } from '@evgen/runtime';
import { operations } from '@evgen/event-management/operations';
import { WIRE } from '@evgen/event-management/service';

/** Entries armed at once; arming more is refused until some are used up or cleared. */
export const MAX_ARMED = 64;
/** The most calls one entry applies to, and the longest delay it may ask for. */
export const MAX_TIMES = 1_000;
export const MAX_DELAY_MS = 60_000;

const OPERATIONS = Object.keys(operations).sort();
const CODES: readonly string[] = WIRE.faults.codes.map((c) => c.code);

// One entry: Int32 fields. COUNT is taken with compareExchange; SEQ orders entries (oldest first).
const COUNT = 0;
const OPERATION = 1;
const FAULT = 2; // index into CODES, -1: none (a delay only)
const DELAY = 3;
const HAS_KEY = 4;
const KEY = 5; // 2 fields: 64 bits of the API key's SHA-256
const SEQ = 7;
const FIELDS = 8;

export interface Arming {
  readonly operation: string;
  /** The fault code to answer; none: the call is served, after the delay. */
  readonly fault?: string;
  readonly delayMs?: number;
  readonly times: number;
  /** Only calls made with this API key. */
  readonly apiKey?: string;
}
export interface Armed extends Arming {
  readonly id: number;
  readonly remaining: number;
}

export class ControlError extends Error {
  override readonly name = 'ControlError';
}

const keyHash = (apiKey: string): [number, number] => {
  const d = createHash('sha256').update(apiKey).digest();
  return [d.readInt32LE(0), d.readInt32LE(4)];
};

/** Checks an arming request's fields: a ControlError naming the first that is wrong. */
export function checkArming(a: Partial<Record<keyof Arming, unknown>>): Arming {
  if (typeof a.operation !== 'string' || !OPERATIONS.includes(a.operation))
    throw new ControlError(`operation: one of ${OPERATIONS.join(', ')}`);
  if (a.fault !== undefined && (typeof a.fault !== 'string' || !CODES.includes(a.fault)))
    throw new ControlError(`fault: one of ${CODES.join(', ')}`);
  const whole = (v: unknown, max: number, min: number) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  if (a.delayMs !== undefined && !whole(a.delayMs, MAX_DELAY_MS, 0))
    throw new ControlError(`delayMs: a whole number of milliseconds up to ${MAX_DELAY_MS}`);
  if (a.fault === undefined && a.delayMs === undefined)
    throw new ControlError('give a fault code, a delayMs, or both');
  const times = a.times ?? 1;
  if (!whole(times, MAX_TIMES, 1)) throw new ControlError(`times: 1 to ${MAX_TIMES}`);
  if (a.apiKey !== undefined && (typeof a.apiKey !== 'string' || a.apiKey.length > 256))
    throw new ControlError('apiKey: the APIKey of the calls to apply to');
  return {
    operation: a.operation,
    times: times as number,
    ...(a.fault === undefined ? {} : { fault: a.fault }),
    ...(a.delayMs === undefined ? {} : { delayMs: a.delayMs as number }),
    ...(a.apiKey === undefined ? {} : { apiKey: a.apiKey }),
  };
}

/** The shared table: create it on the request loop, pass its buffer to every worker. */
export const controlsBuffer = () =>
  new SharedArrayBuffer(MAX_ARMED * FIELDS * Int32Array.BYTES_PER_ELEMENT);

/** The request loop's side: arm, list, clear. */
export class ControlTable {
  readonly #t: Int32Array;
  /** What was armed per slot, as given (the table holds indexes and a hash). */
  readonly #given = new Map<number, Arming>();
  #seq = 0;

  constructor(buffer: SharedArrayBuffer) {
    this.#t = new Int32Array(buffer);
  }

  arm(a: Arming): Armed {
    const t = this.#t;
    let slot = -1;
    for (let s = 0; s < MAX_ARMED && slot < 0; s++) if (Atomics.load(t, s * FIELDS) === 0) slot = s;
    if (slot < 0) throw new ControlError(`${MAX_ARMED} controls are armed: clear some first`);
    const at = slot * FIELDS;
    t[at + OPERATION] = OPERATIONS.indexOf(a.operation);
    t[at + FAULT] = a.fault === undefined ? -1 : CODES.indexOf(a.fault);
    t[at + DELAY] = a.delayMs ?? 0;
    const [lo, hi] = a.apiKey === undefined ? [0, 0] : keyHash(a.apiKey);
    t[at + HAS_KEY] = a.apiKey === undefined ? 0 : 1;
    t[at + KEY] = lo;
    t[at + KEY + 1] = hi;
    Atomics.store(t, at + SEQ, ++this.#seq);
    Atomics.store(t, at + COUNT, a.times); // last: the entry is live from here
    this.#given.set(slot, a);
    return { ...a, id: slot, remaining: a.times };
  }

  list(): Armed[] {
    const out: Armed[] = [];
    for (const [slot, a] of this.#given) {
      const remaining = Atomics.load(this.#t, slot * FIELDS + COUNT);
      if (remaining > 0) out.push({ ...a, id: slot, remaining });
      else this.#given.delete(slot);
    }
    return out.sort((x, y) => this.#seqOf(x.id) - this.#seqOf(y.id));
  }

  clear(): void {
    for (let s = 0; s < MAX_ARMED; s++) Atomics.store(this.#t, s * FIELDS + COUNT, 0);
    this.#given.clear();
  }

  #seqOf = (slot: number) => this.#t[slot * FIELDS + SEQ]!;
}

/** What a call must do, if an armed entry takes it. */
export interface Taken {
  readonly fault: string | undefined;
  readonly delayMs: number;
}

/** A worker's side: takes one call from the oldest live entry that matches it. */
export function takeControl(t: Int32Array, operation: string, apiKey: string): Taken | undefined {
  const op = OPERATIONS.indexOf(operation);
  let hash: [number, number] | undefined;
  for (;;) {
    let best = -1;
    for (let s = 0; s < MAX_ARMED; s++) {
      const at = s * FIELDS;
      if (Atomics.load(t, at + COUNT) <= 0 || t[at + OPERATION] !== op) continue;
      if (t[at + HAS_KEY] === 1) {
        hash ??= keyHash(apiKey);
        if (t[at + KEY] !== hash[0] || t[at + KEY + 1] !== hash[1]) continue;
      }
      if (best < 0 || t[at + SEQ]! < t[best * FIELDS + SEQ]!) best = s;
    }
    if (best < 0) return undefined;
    const at = best * FIELDS;
    const n = Atomics.load(t, at + COUNT);
    if (n <= 0) continue; // taken meanwhile: look again
    if (Atomics.compareExchange(t, at + COUNT, n, n - 1) !== n) continue;
    const fault = t[at + FAULT]!;
    return { fault: fault < 0 ? undefined : CODES[fault], delayMs: t[at + DELAY]! };
  }
}

/** `handlers` with the armed controls applied before each operation runs. */
export function withControls<H extends object>(handlers: H, buffer: SharedArrayBuffer): H {
  const t = new Int32Array(buffer);
  return new Proxy(handlers, {
    get(target, prop, receiver) {
      const fn: unknown = Reflect.get(target, prop, receiver);
      if (typeof fn !== 'function') return fn;
      return async (params: unknown, ctx: RequestContext) => {
        const taken = takeControl(t, ctx.operation, ctx.apiKey);
        if (taken) {
          if (taken.delayMs > 0) await sleep(taken.delayMs);
          if (taken.fault !== undefined)
            throw new ServiceFault(taken.fault, `${taken.fault} forced by a test control`);
        }
        return Reflect.apply(fn, target, [params, ctx]) as unknown;
      };
    },
  });
}
