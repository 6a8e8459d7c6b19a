// Child processes of the bench: the servers under test (server-child.ts) and the load generators.
// Every child is registered and killed when the bench exits, fails or is interrupted; servers
// also exit by themselves when their IPC channel closes, so even a SIGKILLed bench leaves none
// (a load generator then runs out its bounded duration).
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCommand } from './entries.js';

export type ServerConfig =
  | {
      type: 'start';
      kind: 'ours';
      /** A SQLite file or a postgres:// URL. */
      database: string;
      keys: number;
      /** Worker threads per lane (0: on the request loop); default: cores. */
      workers?: number;
      replay?: 'database' | 'off';
      /** SQLite's read cache (default on). */
      readCache?: boolean;
      /** With workers: where small reads are served (default the request loop). */
      smallReads?: 'loop' | 'workers';
    }
  /** The generated server with a fixed in-memory answer and full authentication (no database). */
  | { type: 'start'; kind: 'stub'; operation: string; result: unknown; keys: number }
  | { type: 'start'; kind: 'bare'; body: string }
  | { type: 'start'; kind: 'nodeSoap'; operation: string; result: unknown }
  /** evgen proxy (level document, no secret) in front of `target`, as the command runs it. */
  | { type: 'start'; kind: 'proxy'; target: string };

export interface ServerInfo {
  readonly url: string;
  /** The {soap_namespace} this server expects: https://{its host}/API/1_0/SOAP/ */
  readonly ns: string;
  /** Ours only: API key pairs (the first is the demo key when the database was new). */
  readonly keys: readonly { apiKey: string; secretKey: string }[];
  readonly eventId: number;
  /** Ours: a booking of that event, and a contact's email address (single-record reads). */
  readonly bookingId?: number;
  readonly contactEmail?: string;
  /** Ours: worker threads per lane, and their ids in the kernel (Linux). */
  readonly workers?: number;
  readonly workerTids?: readonly number[];
}

export interface Usage {
  /** RSS now and its peak since start or the last reset (VmHWM), bytes; CPU user+system, ms. */
  readonly rss: number;
  readonly peakRss: number;
  readonly cpuMs: number;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const live = new Set<ChildProcess>();

const temps = new Set<string>();

/** Kills every child still running and removes temporary directories: on exit, error or signal. */
function cleanUp(): void {
  for (const c of live) c.kill('SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}
process.once('exit', cleanUp);
for (const [sig, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.once(sig, () => {
    cleanUp();
    process.exit(code);
  });
}

/** Runs `fn` with a fresh temporary directory, removed afterwards (or by cleanUp if interrupted). */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.add(dir);
  try {
    return await fn(dir);
  } finally {
    temps.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

export function track<C extends ChildProcess>(child: C): C {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** The next IPC message of `type`; rejects if the child exits first or `ms` pass. */
function reply<T>(child: ChildProcess, type: string, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    if (!child.connected) return reject(new Error(`server child gone before '${type}'`));
    const done = () => (
      child.off('message', onMessage),
      child.off('close', onExit),
      clearTimeout(timer)
    );
    const onMessage = ({ type: t, ...m }: { type: string }) =>
      t === type && (done(), resolve(m as T));
    // 'close', not 'exit': it comes after every IPC message the child sent has been read.
    const onExit = (code: number | null) => (
      done(),
      reject(new Error(`server child exited (${code}) before '${type}'`))
    );
    const timer = setTimeout(
      () => (
        done(),
        child.kill('SIGKILL'),
        reject(new Error(`server child: no '${type}' in ${ms} ms`))
      ),
      ms,
    );
    child.on('message', onMessage).once('close', onExit);
  });
}

export interface ServerChild {
  readonly pid: number;
  readonly info: ServerInfo;
  /** `reset`: the next peak counts from now (Linux; elsewhere it is the peak since start). */
  usage(reset?: boolean): Promise<Usage>;
  /** Final usage, then the process is gone. */
  stop(): Promise<Usage>;
}

/** `cpus`: a taskset(1) CPU list the server (every thread of it) is kept on. */
export async function startServer(config: ServerConfig, cpus?: string): Promise<ServerChild> {
  // The child's stdout is /dev/null: the reference service writes its log there, a line per
  // request, as `npm start` writes it to its stdout, and the bench's own output stays the table.
  // Its stderr (stacks, failures) is ours.
  const { args, env } = childCommand('server-child');
  const [cmd, argv] = pinned(cpus, 'node', args);
  const child = track(
    spawn(cmd, argv, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
  const ready = reply<ServerInfo>(child, 'ready', 60_000);
  child.send(config);
  const info = await ready;
  let stopped: Promise<Usage> | undefined;
  return {
    pid: child.pid!,
    info,
    usage(reset = false) {
      const u = reply<Usage>(child, 'usage', 10_000); // rejects at once if the child is gone
      if (child.connected) child.send({ type: 'usage', reset });
      return u;
    },
    stop() {
      stopped ??= (async () => {
        const u = reply<Usage>(child, 'usage', 10_000);
        const gone = new Promise((r) =>
          child.exitCode !== null ? r(null) : child.once('exit', r),
        );
        if (child.connected) child.send({ type: 'stop' });
        try {
          return await u;
        } finally {
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await gone;
          clearTimeout(timer);
        }
      })();
      return stopped;
    },
  };
}

/** `cmd args`, or the same under taskset(1) on `cpus` (taskset execs it: the pid is the same). */
export const pinned = (
  cpus: string | undefined,
  cmd: string,
  args: readonly string[],
): [string, string[]] =>
  cpus === undefined ? [cmd, [...args]] : ['taskset', ['-c', cpus, cmd, ...args]];

/** Runs a load generator to its end, registered so it dies with the bench; resolves with its stdout. */
export function runToEnd(cmd: string, args: string[], seconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] }));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.once('error', reject).once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} exited with ${code}`));
    });
  });
}
