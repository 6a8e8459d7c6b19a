// What the `--workers` row can reach here at most: the bulk work alone (alone-child.ts), on two
// threads against one, in alternating rounds of fresh processes. The work shares the machine's
// caches, memory and database files between its threads; the server adds its request loop, V8's
// helpers and the load generator on the same cores. This row separates the two.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { childCommand } from './entries.js';
import { alternate, median, roundRatios } from './measure.js';

export interface WorkAlone {
  /** Calls a second, the median round's, on two threads (two) and on one (one). */
  readonly two: number;
  readonly one: number;
  /** The median of the rounds' own ratios two/one, and those ratios in order. */
  readonly ratio: number;
  readonly ratios: readonly number[];
}

/** Calls a second of GetBookingsBatch(100) for event `eventId` of `database` on `threads` threads. */
export async function workAlone(
  database: string,
  eventId: number,
  threads: number,
  seconds: number,
): Promise<number> {
  const { args, env } = childCommand('alone-child');
  const argv = [...args, database, String(eventId), String(threads), String(seconds)];
  const { stdout } = await promisify(execFile)('node', argv, { env, maxBuffer: 1 << 20 });
  const { calls } = JSON.parse(stdout) as { calls: number };
  return calls / seconds;
}

/** `rounds` alternating pairs (two threads first in each). */
export async function pairedWorkAlone(
  rounds: number,
  database: string,
  eventId: number,
  seconds: number,
): Promise<WorkAlone> {
  const [twos, ones] = await alternate(
    rounds,
    () => workAlone(database, eventId, 2, seconds),
    () => workAlone(database, eventId, 1, seconds),
  );
  return { two: median(twos), one: median(ones), ...roundRatios(twos, ones, (x) => x) };
}
