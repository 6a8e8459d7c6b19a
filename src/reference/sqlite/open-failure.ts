// Why a SQLite database could not be opened or written at start-up, said so that the operator
// fixes the right thing. SQLite says "unable to open database file" for a folder it may not write
// and "attempt to write a readonly database" for a file on a read-only mount: both once passed
// as "damaged … restore it from a backup", advice that makes people throw good data away. So the
// path is examined first (access(2) knows permissions, immutable files and read-only mounts, for
// root too), and "damaged" is kept for what SQLite itself reports as corrupt.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const codeOf = (e: unknown) => (e as { code?: unknown }).code;

/** SQLite's result codes for a file that is not a sound database. */
const CORRUPT = /^SQLITE_(CORRUPT|NOTADB)/;

/**
 * The problem with `where` (a file or a folder) from an errno of access(2), if it is one; `also`
 * names one more way out.
 */
export function accessProblem(code: unknown, where: string, also = ''): string | undefined {
  if (code === 'EACCES' || code === 'EPERM')
    return `permission denied on ${where} (${code}): give the user running the service write access to it (chmod, chown, or chattr -i)${also}, or choose another --db`;
  if (code === 'EROFS')
    return `${where} is on a read-only file system: serve it with --read-only, or choose a --db on a writable one`;
  if (code === 'ENOTDIR') return `${where} is not a folder: choose another --db`;
  return undefined;
}

/** The problem access(2) finds with `path` for `mode`, naming it as `where`. */
function check(path: string, mode: number, where: string, also?: string): string | undefined {
  try {
    accessSync(path, mode);
    return undefined;
  } catch (e) {
    return accessProblem(codeOf(e), where, also);
  }
}

/** The folder nearest `path` that exists (`/` at worst). */
function existingAncestor(path: string): string {
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** What the file system says is wrong with the database at `path`, if anything. */
function pathProblem(path: string, readOnly: boolean): string | undefined {
  const dir = dirname(path);
  if (!existsSync(path)) {
    if (readOnly)
      return existsSync(dir)
        ? `no database at ${path}: --read-only serves an existing database; start once without --read-only to create one`
        : `no database at ${path}: folder ${dir} does not exist (--read-only serves an existing database; check --db)`;
    const base = existingAncestor(path);
    if (!statSync(base).isDirectory()) return `database ${path}: ${base} is not a folder`;
    const problem = check(base, constants.W_OK, `folder ${base}`);
    if (problem === undefined) return undefined;
    return base === dir
      ? `database ${path}: ${problem}`
      : `database ${path}: folder ${dir} does not exist and cannot be made: ${problem}`;
  }
  const mode = readOnly ? constants.R_OK : constants.R_OK | constants.W_OK;
  const file = check(path, mode, path, readOnly ? '' : ', serve reads only with --read-only');
  if (file !== undefined) return `database ${path}: ${file}`;
  if (readOnly) return undefined;
  // In WAL mode SQLite makes its -wal and -shm files beside the database.
  const folder = check(dir, constants.W_OK, `folder ${dir}`);
  return folder && `database ${path}: ${folder} (SQLite writes its -wal and -shm files there)`;
}

/**
 * The message for a database that could not be opened, checked or written at start-up: the
 * file system's cause when there is one, "damaged" only for what SQLite reports as corrupt.
 */
export function openFailure(path: string, e: unknown, readOnly: boolean): string {
  const problem = pathProblem(path, readOnly);
  if (problem !== undefined) return problem;
  const code = codeOf(e);
  if (typeof code === 'string' && CORRUPT.test(code)) return damaged(path, message(e));
  if (typeof code === 'string' && code.startsWith('SQLITE_READONLY'))
    return `database ${path} is read-only (${message(e)}); make it writable, or serve reads only with --read-only`;
  return `database ${path} cannot be opened: ${message(e)}`;
}

/** A database SQLite found corrupt. */
export const damaged = (path: string, why: string): string =>
  `database ${path} is damaged (${why}); restore it from a backup or start on a new file`;
