// Third-party tools the interoperability tests drive; a missing one fails with what to install.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

export const PYTHON = '/usr/bin/python3'; // Debian's python, which sees python3-zeep
export const PHP = '/usr/bin/php'; // Debian's php-cli, with php-soap's SoapClient

export function requireTool(path: string, debianPackage: string): void {
  if (!existsSync(path))
    throw new Error(
      `${path} is missing: apt-get install ${debianPackage} (listed in .ci/packages.txt)`,
    );
}

export async function run(
  cmd: string,
  args: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = promisify(execFile)(cmd, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
  if (input !== undefined) {
    child.child.stdin?.end(input);
  }
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return {
      code: typeof err.code === 'number' ? err.code : 1,
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? String(e),
    };
  }
}
