// Option values of the operator commands, checked before anything runs: ports, public URLs and
// database paths (a postgres:// URL passes as it is). Bad values are one-line usage errors (exit code 2).
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { isPostgresUrl } from '../reference/pg/url.js';
import { UsageError } from './usage.js';

export function portNumber(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n > 65535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0: any free port)');
  return n;
}

/** An absolute http(s) URL without query, fragment or credentials, with no trailing slash. */
export function publicUrl(v: string): string {
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || !/^https?:$/.test(u.protocol) || u.search || u.hash || u.username || u.password)
    throw new InvalidArgumentError(
      'expected the public base URL, such as https://events.example.com (http or https, no query)',
    );
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

const describe = (path: string) => (statSync(path).isDirectory() ? 'a folder' : 'a file');

/** A database serve or seed may create, with its folders: no file may stand where a folder goes. */
export function creatableDatabase(path: string): string {
  if (isPostgresUrl(path) || path === ':memory:') return path;
  const db = resolve(path);
  if (existsSync(db)) {
    if (statSync(db).isDirectory())
      throw new UsageError(`--db ${db} is a folder, not a database file`);
    return db;
  }
  for (let dir = dirname(db); dir !== dirname(dir); dir = dirname(dir)) {
    if (!existsSync(dir)) continue;
    if (!statSync(dir).isDirectory())
      throw new UsageError(`--db ${db}: ${dir} is ${describe(dir)}, not a folder`);
    break;
  }
  return db;
}

/** The database of the other operator commands, which never create one (a typo would). */
export function existingDatabase(path: string): string {
  if (isPostgresUrl(path)) return path;
  const db = resolve(path);
  if (!existsSync(db))
    throw new UsageError(
      `no database at ${db}: evgen serve or evgen seed creates one (check --db or EVGEN_DB)`,
    );
  if (statSync(db).isDirectory())
    throw new UsageError(`--db ${db} is a folder, not a database file`);
  return db;
}
