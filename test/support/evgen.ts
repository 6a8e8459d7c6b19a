// Runs the evgen command as users do (node src/cli/bin.js) and keeps what it said and its exit
// code, failure included, so tests assert on both.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './ir.js';

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `evgen ...args` in `cwd` (default: the project root). */
export async function runEvgen(args: readonly string[], cwd = PROJECT_ROOT): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'node',
      [join(PROJECT_ROOT, 'src/cli/bin.js'), ...args],
      { cwd },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
