// A worker thread of the reference service (started by workers.ts through worker-entry.js): its
// own database connection and its own instance of the service. It takes one request at a time
// from the pool and answers with the response, its body transferred, not copied.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ServiceRequest, ServiceResponse } from '@evgen/runtime';
import { ownsBuffer } from './detach.js';
import type { Lane } from './lanes.js';
import type { RequestRecord } from './ops/logger.js';
import { createReferenceHandler, type ServiceConfig } from './service.js';

export interface WorkerData {
  readonly config: ServiceConfig;
  readonly id: number;
  readonly lane: Lane;
  /** For worker-entry.js: another module to run (tests); default this one. */
  readonly module?: string;
}
export type ToWorker = { type: 'request'; id: number; req: ServiceRequest } | { type: 'close' };
export type FromWorker =
  /** tid: the thread's id in the kernel (Linux), for operators and the bench's CPU split. */
  | { type: 'ready'; tid?: number }
  | { type: 'request'; record: RequestRecord }
  | { type: 'response'; id: number; res: ServiceResponse };

/** Niceness of a bulk worker: the quick lane and the request loop come first for the CPU. */
export const BULK_NICE = 10;

/** This thread's id in the kernel (Linux), or undefined elsewhere. */
function kernelThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) ? tid : undefined;
  } catch {
    return undefined; // not Linux
  }
}

/**
 * On Linux a thread has a niceness of its own (setpriority on its thread id): a bulk worker
 * lowers its own, so that while pages keep both cores busy a small call still gets a core at
 * once. Elsewhere, or where it is refused, the worker runs at the process's niceness.
 */
function lowerPriority(tid: number | undefined): void {
  try {
    if (tid !== undefined) setPriority(tid, BULK_NICE);
  } catch {
    // not allowed: the lanes still keep small calls out of the page queue
  }
}

const port = parentPort!;
const { config, id, lane } = workerData as WorkerData;
const tid = kernelThreadId();
if (lane === 'bulk') lowerPriority(tid);
const send = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
const service = createReferenceHandler(config, (record) => send({ type: 'request', record }), id);

/** A body that owns its whole buffer can be moved; a view into a shared pool is copied first. */
function transferable(body: Uint8Array): Uint8Array {
  return ownsBuffer(body) ? body : body.slice();
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'close') {
    void service.close().then(() => process.exit(0));
    return;
  }
  void service.handler(m.req).then((res) => {
    if (typeof res.body === 'string') return send({ type: 'response', id: m.id, res });
    const body = transferable(res.body);
    send({ type: 'response', id: m.id, res: { ...res, body } }, [body.buffer as ArrayBuffer]);
  });
});
send(tid === undefined ? { type: 'ready' } : { type: 'ready', tid });
