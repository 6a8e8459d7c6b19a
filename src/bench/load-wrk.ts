// wrk with pre-signed requests (load-wrk.lua): two threads, each signing as its own API key with
// strictly increasing millisecond timestamps, each (APIKey, Operation, Timestamp) used once.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pinned, runToEnd, withTempDir } from './children.js';
import { benchAsset } from './entries.js';
import type { LoadFigures, LoadSpec } from './load.js';
import { signature } from './soap.js';

const SCRIPT = benchAsset('load-wrk.lua');
const THREADS = 2;
/** Signatures per thread and second of load: above the bare server's rate on these machines. */
const PER_SECOND = 40_000;
/**
 * Timestamps have millisecond resolution, so one key's run ahead of the clock at more than 1,000
 * requests a second (8 s at 30k/s: 240 s). They start this far behind the clock to stay within
 * the server's ±300 s.
 */
const BEHIND_MS = 100_000;
/** At most this many per thread, so the last timestamp is under 250 s ahead of the clock. */
const MAX_SIGNED = 350_000;

export async function loadWrk(spec: LoadSpec): Promise<LoadFigures> {
  const keys = spec.keys.slice(0, THREADS);
  if (keys.length < THREADS) throw new Error(`wrk load needs ${THREADS} keys`);
  const [p1, rest1] = split(spec.body, '__TIMESTAMP__');
  const [p2, rest2] = split(rest1, '__SIGNATURE__');
  const [p3, p4] = split(rest2, '__APIKEY__');
  return withTempDir('evgen-wrk-', async (dir) => {
    const args: string[] = [];
    const start = Date.now() - BEHIND_MS;
    const n = Math.min(PER_SECOND * spec.duration, MAX_SIGNED);
    for (const [k, key] of keys.entries()) {
      const lines: string[] = [];
      for (let i = 0; i < n; i++) {
        const ts = new Date(start + i).toISOString();
        lines.push(`${ts} ${signature(spec.operation, ts, key)}`);
      }
      const file = join(dir, `${k}.txt`);
      await writeFile(file, `${lines.join('\n')}\n`);
      args.push(file, key.apiKey);
    }
    const headers = Object.entries(spec.headers).flatMap(([h, v]) => ['-H', `${h}: ${v}`]);
    const wrkArgs = [
      '-t',
      String(THREADS),
      '-c',
      String(spec.connections),
      '-d',
      `${spec.duration}s`,
      '--timeout',
      '10s',
      ...headers,
      '-s',
      SCRIPT,
      `${spec.url}${spec.path}`,
      '--',
      p1,
      p2,
      p3,
      p4,
      ...args,
    ];
    const out = await runToEnd(...pinned(spec.cpus, 'wrk', wrkArgs), spec.duration + 10);
    const json = out.split('\n').find((l) => l.startsWith('{"rps"'));
    if (!json) throw new Error(`wrk printed no figures:\n${out}`);
    const fig = JSON.parse(json) as Omit<LoadFigures, 'generator'>;
    // Past its signatures a thread repeats them: replays, refused by a server that checks.
    if (fig.wrapped)
      process.stderr.write(
        `  note: wrk used up its ${n} signatures per thread ${fig.wrapped} time(s)\n`,
      );
    return { generator: 'wrk', ...fig };
  });
}

function split(s: string, marker: string): [string, string] {
  const at = s.indexOf(marker);
  if (at < 0) throw new Error(`request body lacks ${marker}`);
  return [s.slice(0, at), s.slice(at + marker.length)];
}
