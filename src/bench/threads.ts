// CPU by thread of a server process, from /proc/<pid>/task/<tid>/stat (Linux; elsewhere nothing):
// how a server's CPU splits between its busiest thread, its main thread and the rest. With one bulk
// worker the busiest thread is the limit, and what runs beside it (the request loop on the main
// thread, V8's helper threads) is what two workers must also fit on the same two cores.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks (user + system) so far of each thread of `pid`; undefined where /proc is missing. */
export function threadTicks(pid: number): Map<string, number> | undefined {
  const times = threadTimes(pid);
  return times && new Map([...times].map(([tid, t]) => [tid, t.user + t.system]));
}

/** User and system clock ticks so far of each thread of `pid`; undefined where /proc is missing. */
export function threadTimes(pid: number): Map<string, StatTimes> | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const times = new Map<string, StatTimes>();
  for (const tid of tids) {
    try {
      times.set(tid, statTimes(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // the thread ended between the listing and the read: it has no share to count
    }
  }
  return times;
}

export interface StatTimes {
  readonly user: number;
  readonly system: number;
}

/**
 * utime and stime of a /proc stat line (its 14th and 15th fields), counted after the command's
 * closing parenthesis: a thread's name may hold spaces and parentheses.
 */
export function statTimes(line: string): StatTimes {
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user + system))
    throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  return { user, system };
}

/** utime + stime of a /proc stat line. */
export const statTicks = (line: string): number => {
  const { user, system } = statTimes(line);
  return user + system;
};

/** Shares (0 to 1) of all the ticks a process's threads spent between two readings. */
export interface ThreadShares {
  /** The thread that spent most: with one worker, the bulk worker. */
  readonly busiest: number;
  /** The process's first thread (its tid is the pid): in the reference service, the request loop. */
  readonly main: number;
}

/**
 * The busiest thread's share and thread `mainTid`'s share of all the ticks the threads spent
 * between two readings; a thread started in between counts from zero. Undefined without both
 * readings or without ticks.
 */
export function threadShares(
  before: ReadonlyMap<string, number> | undefined,
  after: ReadonlyMap<string, number> | undefined,
  mainTid: string,
): ThreadShares | undefined {
  if (!before || !after) return undefined;
  let total = 0;
  let most = 0;
  let main = 0;
  for (const [tid, t] of after) {
    const spent = t - (before.get(tid) ?? 0);
    total += spent;
    most = Math.max(most, spent);
    if (tid === mainTid) main = spent;
  }
  return total > 0 ? { busiest: most / total, main: main / total } : undefined;
}

/** Clock ticks of a server's threads between two readings, by part (Linux; see cpuSplit). */
export interface CpuSplit {
  /** The process's first thread: the request loop. */
  readonly loop: number;
  /** The threads the server named as its workers. */
  readonly workers: number;
  /** Every other thread: V8's collector and compiler helpers, libuv's pool. */
  readonly other: number;
  /** Of all the above, the time spent in the kernel (system time). */
  readonly kernel: number;
}

/**
 * Where a server's CPU went between two readings of threadTimes: its request loop (the thread
 * whose tid is the pid), the threads in `workers`, and the rest; and how much of it all was the
 * kernel's. A thread started in between counts from zero; one that ended is not counted.
 */
export function cpuSplit(
  before: ReadonlyMap<string, StatTimes>,
  after: ReadonlyMap<string, StatTimes>,
  pid: string,
  workers: ReadonlySet<string>,
): CpuSplit {
  const split = { loop: 0, workers: 0, other: 0, kernel: 0 };
  for (const [tid, t] of after) {
    const was = before.get(tid) ?? { user: 0, system: 0 };
    const user = t.user - was.user;
    const system = t.system - was.system;
    split[tid === pid ? 'loop' : workers.has(tid) ? 'workers' : 'other'] += user + system;
    split.kernel += system;
  }
  return split;
}
