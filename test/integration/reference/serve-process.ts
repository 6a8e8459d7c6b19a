// `evgen serve` in a child process, for tests of what only a whole process shows: start-up checks,
// several processes on one database, restarts, signals. Ready when it prints its endpoint.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../support/ir.js';

export const BIN = join(PROJECT_ROOT, 'src/cli/bin.js');

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The base URL, and the demo key when this start seeded the database. */
  readonly ready: Promise<{ url: string; key: { apiKey: string; secretKey: string } | undefined }>;
  /** Resolves with the exit code (null after a signal). */
  readonly exited: Promise<number | null>;
  stderr(): string;
  stdout(): string;
}

export function serve(db: string, ...args: string[]): ServeProcess {
  const child = spawn('node', [BIN, 'serve', '--db', db, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = new Promise<Awaited<ServeProcess['ready']>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 60_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const url = /endpoint: (http:\/\/[^/]+)\//.exec(err)?.[1];
      if (!url || !/workers: /.test(err)) return;
      clearTimeout(timer);
      const key = /APIKey:\s+(\S+)\s+SecretKey:\s+(\S+)/.exec(err);
      resolve({ url, key: key ? { apiKey: key[1]!, secretKey: key[2]! } : undefined });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
  ready.catch(() => undefined);
  return { child, ready, exited, stderr: () => err, stdout: () => out };
}

/** Stops a serve process (SIGTERM) and waits for it. */
export async function stop(p: ServeProcess): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await p.exited;
}
