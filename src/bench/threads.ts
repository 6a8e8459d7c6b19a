// CPU by thread of a server process, from /proc/<pid>/task/<tid>/stat (Linux; elsewhere nothing):
// how a server's CPU splits between its busiest thread, its main thread and the rest. With one bulk
// worker the busiest thread is the limit, and what runs beside it (the request loop on the main
// thread, V8's helper threads) is what two workers must also fit on the same two cores.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks (user + system) so far of each thread of `pid`; undefined where /proc is missing. */
export function threadTicks(pid: number): Map<string, number> | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const ticks = new Map<string, number>();
  for (const tid of tids) {
    try {
      ticks.set(tid, statTicks(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // the thread ended between the listing and the read: it has no share to count
    }
  }
  return ticks;
}

/**
 * utime + stime of a /proc stat line (its 14th and 15th fields), counted after the command's
 * closing parenthesis: a thread's name may hold spaces and parentheses.
 */
export function statTicks(line: string): number {
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  return ticks;
}

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
